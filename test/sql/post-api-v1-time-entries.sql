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

insert into "time_entries" ("id", "workspace_id", "project_id", "user_id", "start", "minutes", "description", "tags", "billable", "created_at", "updated_at") select $1::text, $2::text, $3::text, $4::text,
          $5::timestamptz, $6::int, $7::text, $8::text[],
          coalesce($9::boolean, (select pb.billable_by_default from "projects" pb
    where pb.id = $10::text and pb.workspace_id = $11::text), false),
          $12::timestamptz, $13::timestamptz
        where (($14 in (select wm.workspace_id from "workspace_members" wm where wm.user_id = $15)) and ($16 = $17 or ($18 in (select wa.workspace_id from "workspace_members" wa
    where wa.user_id = $19 and wa.role in ('owner', 'admin')))) and ($20 in (select wm.workspace_id from "workspace_members" wm where wm.user_id = $21)) and (($22)::text is null
      or exists (select 1 from "projects" pr where pr.id = $23 and pr.workspace_id = $24)) and (($25)::text is null or (($26 in (select wa.workspace_id from "workspace_members" wa
    where wa.user_id = $27 and wa.role in ('owner', 'admin'))) or ($28 in (select pm.project_id from "project_members" pm where pm.user_id = $29)))))
          and (select tc.entries from time_entry_counts tc
            where tc.workspace_id = $30::text and tc.user_id = $31::text for update) < $32::int returning "id", "workspace_id", "project_id", "user_id", "start", "minutes", "description", "tags", "billable", "created_at", "updated_at";
