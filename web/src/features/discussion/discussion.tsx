/** A sent version's discussion: Markdown comments, one's own edited or deleted, and reactions toggled at once. */
import { useState } from 'react';
import { api, type Comment, type Discussion, type ReactionKey, type ReactionSummary } from '../../lib/api.js';
import { useSession } from '../../lib/session.js';
import { REACTIONS } from '../../../../packages/document/src/index.js';
import { ConfirmDelete, ErrorMessage, Loading, Markdown, TextAreaField, Time, useAction, useLoad, Form } from '../../components/ui/ui.js';

/** The summaries as they will be once the caller's reaction `key` is toggled. */
function toggled(summaries: ReactionSummary[], key: ReactionKey, myName: string): ReactionSummary[] {
  const existing = summaries.find((s) => s.emoji === key);
  if (!existing) {
    const added: ReactionSummary = { emoji: key, count: 1, reactedByMe: true, userNames: [myName] };
    return REACTIONS.flatMap((r) => (r.key === key ? [added] : summaries.filter((s) => s.emoji === r.key)));
  }
  if (existing.reactedByMe) {
    const names = [...existing.userNames];
    const at = names.lastIndexOf(myName);
    if (at >= 0) names.splice(at, 1);
    return existing.count <= 1
      ? summaries.filter((s) => s.emoji !== key)
      : summaries.map((s) => (s.emoji === key ? { ...s, count: s.count - 1, reactedByMe: false, userNames: names } : s));
  }
  return summaries.map((s) => (s.emoji === key ? { ...s, count: s.count + 1, reactedByMe: true, userNames: [...s.userNames, myName] } : s));
}

function Reactions({
  summaries,
  label,
  onToggle,
  disabled,
}: {
  summaries: ReactionSummary[];
  label: string;
  onToggle: (key: ReactionKey) => void;
  disabled: boolean;
}) {
  return (
    <div className="reactions" role="group" aria-label={label}>
      {REACTIONS.map((r) => {
        const summary = summaries.find((s) => s.emoji === r.key);
        const who = summary ? `: ${summary.userNames.join(', ')}` : '';
        return (
          <button
            key={r.key}
            type="button"
            className={summary ? 'reaction used' : 'reaction'}
            aria-pressed={summary?.reactedByMe ?? false}
            aria-label={`${r.name}, ${summary?.count ?? 0}${who}`}
            title={`${r.name}${who}`}
            disabled={disabled}
            onClick={() => {
              onToggle(r.key);
            }}
          >
            <span aria-hidden="true">{r.emoji}</span>
            {summary ? <span aria-hidden="true"> {summary.count}</span> : null}
          </button>
        );
      })}
    </div>
  );
}

/** A version's discussion; a change of `refresh` reads it again (a send opens it), keeping what is shown meanwhile. */
export function DiscussionPanel({ contentId, refresh = 0 }: { contentId: string; refresh?: number }) {
  const { me } = useSession();
  const loaded = useLoad(() => api.discussion(contentId), [contentId, refresh]);
  const [error, setError] = useState<unknown>(null);
  const [body, setBody] = useState('');
  const add = useAction(async (text: string) => api.addComment(contentId, text));

  if (!loaded.data) return loaded.error ? <ErrorMessage error={loaded.error} /> : <Loading what="the discussion" />;
  const discussion = loaded.data;

  const update = (change: (d: Discussion) => Discussion) => {
    loaded.set(change(discussion));
  };

  /** Optimistic: shows the toggle at once, then takes the server's answer (or undoes it on error). */
  const toggle = (key: ReactionKey, commentId?: string) => {
    setError(null);
    const apply = (summaries: ReactionSummary[]) => toggled(summaries, key, me.name);
    const before = discussion;
    const optimistic = commentId
      ? { ...discussion, comments: discussion.comments.map((c) => (c.id === commentId ? { ...c, reactions: apply(c.reactions) } : c)) }
      : { ...discussion, reactions: apply(discussion.reactions) };
    loaded.set(optimistic);
    api.toggleReaction(contentId, key, commentId).then(
      (summaries) => {
        loaded.set(
          commentId
            ? { ...optimistic, comments: optimistic.comments.map((c) => (c.id === commentId ? { ...c, reactions: summaries } : c)) }
            : { ...optimistic, reactions: summaries },
        );
      },
      (caught: unknown) => {
        loaded.set(before);
        setError(caught);
      },
    );
  };

  const submit = async () => {
    const comment = await add.run(body);
    if (comment) {
      update((d) => ({ ...d, comments: [...d.comments, comment] }));
      setBody('');
    }
  };

  return (
    <section className="discussion" aria-labelledby="discussion-heading">
      <h2 id="discussion-heading">Discussion</h2>
      {!discussion.shared ? (
        <p>This version has not been sent yet; its discussion opens when it is.</p>
      ) : (
        <>
          <Reactions
            summaries={discussion.reactions}
            label="Reactions to the report"
            onToggle={(k) => {
              toggle(k);
            }}
            disabled={false}
          />
          <ErrorMessage error={error} />
          {discussion.comments.length === 0 ? <p>No comments yet.</p> : null}
          <ol className="comments">
            {discussion.comments.map((comment) => (
              <CommentItem
                key={comment.id}
                comment={comment}
                contentId={contentId}
                onToggle={(k) => {
                  toggle(k, comment.id);
                }}
                onChanged={(changed) => {
                  update((d) => ({ ...d, comments: d.comments.map((c) => (c.id === changed.id ? changed : c)) }));
                }}
                onDeleted={() => {
                  update((d) => ({ ...d, comments: d.comments.filter((c) => c.id !== comment.id) }));
                }}
              />
            ))}
          </ol>
          <Form onSubmit={submit} className="stack">
            <TextAreaField
              label="Add a comment"
              hint="Markdown: **bold**, _italic_, [links](https://…), lists."
              rows={3}
              required
              maxLength={10000}
              value={body}
              onChange={setBody}
            />
            <ErrorMessage error={add.error} />
            <div>
              <button type="submit" disabled={add.busy || body.trim() === ''}>
                {add.busy ? 'Posting…' : 'Comment'}
              </button>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}

function CommentItem({
  comment,
  contentId,
  onToggle,
  onChanged,
  onDeleted,
}: {
  comment: Comment;
  contentId: string;
  onToggle: (key: ReactionKey) => void;
  onChanged: (comment: Comment) => void;
  onDeleted: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(comment.body);
  const save = useAction(async () => api.editComment(contentId, comment.id, text));
  const remove = useAction(async () => {
    await api.deleteComment(contentId, comment.id);
    return true;
  });
  return (
    <li className="comment">
      <p className="meta">
        <strong>{comment.authorName}</strong> · <Time instant={comment.createdAt} />
        {comment.updatedAt !== comment.createdAt ? ' · edited' : ''}
      </p>
      {editing ? (
        <Form
          className="stack"
          onSubmit={() =>
            save.run().then((changed) => {
              if (changed) {
                onChanged(changed);
                setEditing(false);
              }
            })
          }
        >
          <TextAreaField label="Edit your comment" rows={3} required maxLength={10000} value={text} onChange={setText} />
          <ErrorMessage error={save.error} />
          <div className="row">
            <button type="submit" disabled={save.busy}>
              {save.busy ? 'Saving…' : 'Save'}
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setEditing(false);
              }}
            >
              Cancel
            </button>
          </div>
        </Form>
      ) : (
        <Markdown source={comment.body} headingOffset={3} />
      )}
      <Reactions
        summaries={comment.reactions}
        label={`Reactions to ${comment.authorName}'s comment`}
        onToggle={onToggle}
        disabled={false}
      />
      {comment.editable && !editing && (
        <div className="row">
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setText(comment.body);
              setEditing(true);
            }}
          >
            Edit
          </button>
          <ConfirmDelete
            busy={remove.busy}
            confirmLabel="Really delete"
            onConfirm={() =>
              void remove.run().then((done) => {
                if (done) onDeleted();
              })
            }
          />
        </div>
      )}
      <ErrorMessage error={remove.error} />
    </li>
  );
}
