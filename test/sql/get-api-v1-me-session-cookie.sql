with found as (
      select s.id as session_id, s.last_seen_at,
        u.id, u.name, u.email, u.timezone, u.locale, u.image_url, u.instance_admin, u.created_at
      from sessions s join users u on u.id = s.user_id
      where s.token_hash = $1 and s.expires_at > $2::timestamptz
        and s.last_seen_at > $3::timestamptz
      limit 1
    ), c as (
    insert into user_rate_windows as w (user_id, window_start, used)
    select id, $4::timestamptz, $5::int from found
    on conflict (user_id) do update set
      used = case when excluded.window_start > w.window_start then excluded.used else w.used + excluded.used end,
      window_start = greatest(w.window_start, excluded.window_start)
    returning used, window_start)
    select found.*, c.used, c.window_start from found cross join c;
