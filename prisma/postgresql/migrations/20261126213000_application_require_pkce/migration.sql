-- Applications that must use PKCE (S256) on the authorization code grant: the sample Activity's (issue 29, finding 5).
ALTER TABLE "applications" ADD COLUMN "require_pkce" BOOLEAN NOT NULL DEFAULT false;
