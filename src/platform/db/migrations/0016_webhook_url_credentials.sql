-- Credentials inside a webhook URL (https://user:pass@host/), sealed like signing secrets; `url` keeps the rest.
ALTER TABLE "webhook_endpoints" ADD COLUMN "url_credentials_sealed" bytea;
