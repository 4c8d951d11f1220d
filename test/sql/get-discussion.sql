with found as (
      select k.id as token_id, k.scopes, k.expires_at as token_expires_at,
        u.id, u.name, u.email, u.timezone, u.locale, u.image_url, u.instance_admin, u.created_at
      from api_tokens k join users u on u.id = k.user_id
      where k.token_hash = $1 and k.revoked_at is null
        and (k.expires_at is null or k.expires_at > $2::timestamptz)
      limit 1
    ), c as (
    insert into user_rate_windows as w (user_id, window_start, used)
    select id, $3::timestamptz, $4::int from found
    on conflict (user_id) do update set
      used = case when excluded.window_start > w.window_start then excluded.used else w.used + excluded.used end,
      window_start = greatest(w.window_start, excluded.window_start)
    returning used, window_start)
    select found.*, c.used, c.window_start from found cross join c;

select "reports"."id", "reports"."owner_user_id", "reports"."template_id", "reports"."name", "reports"."note", "reports"."filters", "reports"."options", "reports"."workspace_ids", "reports"."period_from", "reports"."period_to", "reports"."total_minutes", "reports"."snapshot_project_ids", "reports"."restricts_recipients", "reports"."version", "reports"."current_content_id", "reports"."created_at", "reports"."updated_at", exists (select 1 from "sends" s where s.report_id = "reports"."id" and s.report_content_id = "report_contents"."id"), exists (select 1 from "deliveries" d where d.report_content_id = "report_contents"."id" and d.recipient_user_id = $1), ("reports"."workspace_ids" <@ array(select wm.workspace_id from "workspace_members" wm where wm.user_id = $2)), (cardinality("reports"."workspace_ids") = 1 and (("reports"."workspace_ids")[1] in (select wa.workspace_id from "workspace_members" wa
    where wa.user_id = $3 and wa.role in ('owner', 'admin')))), coalesce((select dr.revision from "discussion_revisions" dr where dr.report_content_id = "report_contents"."id"), 0) from "report_contents" inner join "reports" on "reports"."id" = "report_contents"."report_id" where "report_contents"."id" = $4;
