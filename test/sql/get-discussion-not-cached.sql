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

select coalesce((select dr.revision from "discussion_revisions" dr where dr.report_content_id = "id"), 0), (select count(*) from comments c where c.report_content_id = $1), (
        with page as (
          select c.id, c.report_content_id, c.author_user_id, c.author_name, c.body, c.created_at, c.updated_at, u.image_url
          from comments c left join users u on u.id = c.author_user_id
          where c.report_content_id = $2
          order by c.created_at, c.id
          limit $3 offset $4
        ),
        summaries as (
          select r.comment_id, r.emoji,
            json_build_object('emoji', r.emoji, 'count', count(*), 'reactedByMe', bool_or(r.user_id = $5),
              'userNames', json_agg(u.name order by r.created_at, r.id)) as summary
          from reactions r join users u on u.id = r.user_id
          where r.report_content_id = $6 and (r.comment_id is null or r.comment_id in (select id from page))
          group by r.comment_id, r.emoji
        ),
        by_target as (
          select s.comment_id, json_agg(s.summary order by array_position(array['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'], s.emoji)) as list
          from summaries s group by s.comment_id
        )
        select json_build_object(
          'reportContentId', $7::text,
          'shared', $8::boolean,
          'reactions', coalesce((select t.list from by_target t where t.comment_id is null), '[]'),
          'comments', coalesce((select json_agg(json_build_object(
              'id', page.id, 'reportContentId', page.report_content_id, 'authorUserId', page.author_user_id,
              'authorName', page.author_name, 'authorImageUrl', page.image_url, 'body', page.body,
              'createdAt', to_char(page.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(page.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'editable', coalesce(page.author_user_id = $9, false),
              'reactions', coalesce(t.list, '[]')
            ) order by page.created_at, page.id) from page left join by_target t on t.comment_id = page.id), '[]')
        )::text) from "report_contents" where "report_contents"."id" = $10;
