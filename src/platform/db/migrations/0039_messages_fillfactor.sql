-- The dispatcher's claim and lease renewals write only columns no index of messages names, so they can be HOT
-- updates (no index entry) when the new row version fits on its page: new pages keep 30% free for them
-- (decision 0078). Existing pages are left as they are.
ALTER TABLE "messages" SET (fillfactor = 70);
