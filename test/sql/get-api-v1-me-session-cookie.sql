with "found" as (
      select s.id as credential_id, null::text[] as credential_scopes, null::timestamptz as credential_expires_at,
        s.last_seen_at as credential_last_seen_at, u.id as credential_user_id, u.name as credential_user_name, u.email as credential_user_email,
        u.timezone as credential_user_timezone, u.locale as credential_user_locale, u.image_url as credential_user_image_url,
        u.instance_admin as credential_user_instance_admin, u.created_at as credential_user_created_at
      from sessions s join users u on u.id = s.user_id
      where s.token_hash = $1 and s.expires_at > $2::timestamptz
        and s.last_seen_at > $3::timestamptz
      limit 1), "charged" as (
    insert into user_rate_windows as w (user_id, window_start, used)
    select credential_user_id, $4::timestamptz, $5::int from found
    on conflict (user_id) do update set
      used = case when excluded.window_start > w.window_start then excluded.used else w.used + excluded.used end,
      window_start = greatest(w.window_start, excluded.window_start)
    returning used as credential_used, window_start as credential_window_start) select "credential_id", "credential_scopes", "credential_expires_at", "credential_last_seen_at", "credential_user_id", "credential_user_name", "credential_user_email", "credential_user_timezone", "credential_user_locale", "credential_user_image_url", "credential_user_instance_admin", "credential_user_created_at", "credential_used", "credential_window_start" from "found" cross join "charged";
