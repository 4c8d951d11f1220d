with "found" as (
      select k.id as credential_id, k.scopes as credential_scopes, k.expires_at as credential_expires_at,
        null::timestamptz as credential_last_seen_at, u.id as credential_user_id, u.name as credential_user_name, u.email as credential_user_email,
        u.timezone as credential_user_timezone, u.locale as credential_user_locale, u.image_url as credential_user_image_url,
        u.instance_admin as credential_user_instance_admin, u.created_at as credential_user_created_at
      from api_tokens k join users u on u.id = k.user_id
      where k.token_hash = $1 and k.revoked_at is null
        and (k.expires_at is null or k.expires_at > $2::timestamptz)
      limit 1), "charged" as (
    insert into user_rate_windows as w (user_id, window_start, used)
    select credential_user_id, $3::timestamptz, $4::int from found
    on conflict (user_id) do update set
      used = case when excluded.window_start > w.window_start then excluded.used else w.used + excluded.used end,
      window_start = greatest(w.window_start, excluded.window_start)
    returning used as credential_used, window_start as credential_window_start) select "credential_id", "credential_scopes", "credential_expires_at", "credential_last_seen_at", "credential_user_id", "credential_user_name", "credential_user_email", "credential_user_timezone", "credential_user_locale", "credential_user_image_url", "credential_user_instance_admin", "credential_user_created_at", "credential_used", "credential_window_start", "reports"."id", "reports"."owner_user_id", "reports"."template_id", "reports"."name", "reports"."note", "reports"."filters", "reports"."options", "reports"."workspace_ids", "reports"."period_from", "reports"."period_to", "reports"."total_minutes", "reports"."snapshot_project_ids", "reports"."restricts_recipients", "reports"."version", "reports"."current_content_id", "reports"."created_at", "reports"."updated_at", exists (select 1 from "sends" s where s.report_id = "reports"."id" and s.report_content_id = "report_contents"."id"), exists (select 1 from "deliveries" d where d.report_content_id = "report_contents"."id" and d.recipient_user_id = "credential_user_id"), ("reports"."workspace_ids" <@ array(select wm.workspace_id from "workspace_members" wm where wm.user_id = "credential_user_id")), (cardinality("reports"."workspace_ids") = 1 and (("reports"."workspace_ids")[1] in (select wa.workspace_id from "workspace_members" wa
    where wa.user_id = "credential_user_id" and wa.role in ('owner', 'admin')))), coalesce((select dr.revision from "discussion_revisions" dr where dr.report_content_id = "report_contents"."id"), 0) from "found" cross join "charged" left join "report_contents" on "report_contents"."id" = $5 left join "reports" on "reports"."id" = "report_contents"."report_id";
