-- The request whose change wrote the dispatch (x-request-id): the gateway logs it beside each dispatch it fans out.
ALTER TABLE "gateway_events" ADD COLUMN "request_id" TEXT;
