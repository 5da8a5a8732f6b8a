-- Each account reads local numbers (a leading 0) in its own country, kept in accounts.settings as "country"
-- (AU when absent). Existing accounts are given the country they evidently work in: New Zealand when every
-- dedicated number they hold is a New Zealand one, or, holding none, when most of the messages they have sent went
-- to New Zealand mobiles; Australia otherwise.
UPDATE "accounts" a SET "settings" = a."settings" || '{"country": "NZ"}'::jsonb
WHERE NOT (a."settings" ? 'country')
  AND CASE
    WHEN EXISTS (SELECT 1 FROM "numbers" n WHERE n."account_id" = a."id")
      THEN NOT EXISTS (SELECT 1 FROM "numbers" n WHERE n."account_id" = a."id" AND n."country" <> 'NZ')
    ELSE (SELECT count(*) FILTER (WHERE m."country" = 'NZ') * 2 > count(*) FROM "messages" m WHERE m."account_id" = a."id")
  END;
