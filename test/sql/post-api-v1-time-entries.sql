with found as (
      select k.id as token_id, k.scopes, k.expires_at as token_expires_at,
        u.id, u.name, u.email, u.timezone, u.image_url, u.instance_admin, u.created_at
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

select count(pg_advisory_xact_lock(k)) from (
      select distinct hashtextextended('time-entry-quota:' || q.user_id || ':' || q.workspace_id, 0) as k
      from jsonb_to_recordset($1::jsonb) as q(user_id text, workspace_id text)
      order by k
    ) s;

insert into "time_entries" ("id", "workspace_id", "project_id", "user_id", "start", "minutes", "description", "tags", "created_at", "updated_at") select $1::text, $2::text, $3::text, $4::text,
          $5::timestamptz, $6::int, $7::text, $8::text[],
          $9::timestamptz, $10::timestamptz
        where exists (select 1 from workspace_members a where a.workspace_id = $11 and a.user_id = $12
            and ($13 = $14 or a.role in ('owner', 'admin')))
          and exists (select 1 from workspace_members m where m.workspace_id = $15 and m.user_id = $16)
          and ($17::text is null or exists (
            select 1 from projects pr where pr.id = $18 and pr.workspace_id = $19
              and (exists (select 1 from workspace_members wa where wa.workspace_id = $20 and wa.user_id = $21 and wa.role in ('owner', 'admin'))
                or exists (select 1 from project_members pm where pm.project_id = $22 and pm.user_id = $23)))) returning "id", "workspace_id", "project_id", "user_id", "start", "minutes", "description", "tags", "created_at", "updated_at";

select q.user_id as "userId", q.workspace_id as "workspaceId"
    from (select distinct * from jsonb_to_recordset($1::jsonb) as q(user_id text, workspace_id text)) q
    where (select count(*) from (select 1 from time_entries t where t.user_id = q.user_id and t.workspace_id = q.workspace_id
      limit $2) x) > $3;
