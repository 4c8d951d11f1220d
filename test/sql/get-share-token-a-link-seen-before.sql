update shares s
    set view_count = s.view_count + v.n, last_viewed_at = greatest(s.last_viewed_at, $1::timestamptz)
    from unnest($2::text[], $3::int[]) as v(token_hash, n)
    where s.token_hash = v.token_hash and s.revoked_at is null and (s.expires_at is null or s.expires_at > $4::timestamptz)
    returning s.token_hash, (
      select w.branding_version::text || coalesce(w.branding_accent_color, '')
      from reports r join workspaces w on w.id = r.workspace_ids[1] where r.id = s.report_id) as "branding", s.report_content_id as "content_id", s.version as "served_version", case when s.follows = 'latest' then (select rs.next_run_at from report_schedules rs where rs.report_id = s.report_id) end as "next_run_at", case when s.follows = 'latest' then (select u.timezone from reports r join users u on u.id = r.owner_user_id where r.id = s.report_id) end as "timezone";
