-- How the two largest values of a version are stored (docs/decisions.md "Stored documents: LZ4
-- where the server has it, datasets as they are"). A frozen dataset is gzip in base64, which
-- PostgreSQL's own compression cannot shrink: without this every insert spent milliseconds
-- finding that out. Stored out of line as it is.
ALTER TABLE "report_datasets" ALTER COLUMN "data" SET STORAGE EXTERNAL;
--> statement-breakpoint
-- The rendered document and its summary are compressed with LZ4 where the server is built with it
-- (most builds of PostgreSQL are): several times faster to write and to read than pglz, for a
-- slightly larger value. The embedded engine has pglz only and keeps it. Values written before
-- stay as they are; both methods are read alike.
DO $$
BEGIN
  IF 'lz4' = ANY ((SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression')::text[]) THEN
    ALTER TABLE "report_contents" ALTER COLUMN "rendered_markdown" SET COMPRESSION lz4;
    ALTER TABLE "report_contents" ALTER COLUMN "summary" SET COMPRESSION lz4;
  END IF;
END
$$;
