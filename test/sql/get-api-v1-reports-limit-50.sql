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
    returning used as credential_used, window_start as credential_window_start) select "credential_id", "credential_scopes", "credential_expires_at", "credential_last_seen_at", "credential_user_id", "credential_user_name", "credential_user_email", "credential_user_timezone", "credential_user_locale", "credential_user_image_url", "credential_user_instance_admin", "credential_user_created_at", "credential_used", "credential_window_start" from "found" cross join "charged";

select "reports"."id", "reports"."name", "reports"."owner_user_id", "reports"."template_id", "reports"."filters", "reports"."options", "reports"."note", "reports"."total_minutes", "reports"."snapshot_project_ids", "reports"."version", "reports"."created_at", "reports"."updated_at", ("reports"."workspace_ids" <@ array(select wm.workspace_id from "workspace_members" wm where wm.user_id = $1)), "total" from (select "id", count(*) over () as "total" from "reports" where "reports"."owner_user_id" = $2 order by "reports"."created_at" desc, "reports"."id" desc limit $3) "page" inner join "reports" on "reports"."id" = "page"."id" order by "reports"."created_at" desc, "reports"."id" desc;
