/** Public share links of a version, or following the newest: mint (passcode, expiry), copy, see views, revoke. */
import { useState } from 'react';
import { api, type Share } from '../../lib/api.js';
import { CheckField, CopyButton, ErrorMessage, Loading, Time, useAction, useLoad, InputField, Form } from '../../components/ui/ui.js';

export function SharePanel({ kind, id }: { kind: 'report' | 'inbox'; id: string }) {
  const loaded = useLoad(() => (kind === 'report' ? api.reportShares(id) : api.inboxShares(id)), [kind, id]);
  const [passcode, setPasscode] = useState('');
  const [days, setDays] = useState('');
  const [follows, setFollows] = useState(false);
  const mint = useAction(async () => {
    const body = {
      ...(passcode ? { passcode } : {}),
      ...(days ? { expiresInDays: Number(days) } : {}),
      ...(follows ? { follows: 'latest' as const } : {}),
    };
    return kind === 'report' ? api.mintReportShare(id, body) : api.mintInboxShare(id, body);
  });
  const submit = async () => {
    const share = await mint.run();
    if (share) {
      loaded.set([share, ...(loaded.data ?? [])]);
      setPasscode('');
      setDays('');
      setFollows(false);
    }
  };
  return (
    <section aria-labelledby={`links-${id}`}>
      <h2 id={`links-${id}`}>Public links</h2>
      <Form onSubmit={submit} className="stack">
        <div className="grid">
          <InputField
            label="Passcode (optional)"
            hint="4 to 128 characters; readers must type it."
            type="text"
            autoComplete="off"
            minLength={4}
            maxLength={128}
            value={passcode}
            onChange={setPasscode}
          />
          <InputField
            label="Expires after (days, optional)"
            type="number"
            min={1}
            max={365}
            inputMode="numeric"
            value={days}
            onChange={setDays}
          />
        </div>
        {kind === 'report' ? (
          <CheckField
            checked={follows}
            onChange={setFollows}
            hint="The link then shows each new version, from an edit or a scheduled run, instead of this one."
          >
            Always show the newest version
          </CheckField>
        ) : null}
        <p>
          <button type="submit" disabled={mint.busy}>
            {mint.busy ? 'Creating…' : 'Create link'}
          </button>
        </p>
      </Form>
      <ErrorMessage error={mint.error} />
      {loaded.error ? <ErrorMessage error={loaded.error} /> : null}
      {!loaded.data ? (
        loaded.error ? null : (
          <Loading what="links" />
        )
      ) : loaded.data.length === 0 ? (
        <p>No links yet.</p>
      ) : (
        <ul className="shares">
          {loaded.data.map((share) => (
            <ShareItem
              key={share.id}
              share={share}
              onChanged={(s) => {
                loaded.set((loaded.data ?? []).map((x) => (x.id === s.id ? s : x)));
              }}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function ShareItem({ share, onChanged }: { share: Share; onChanged: (share: Share) => void }) {
  const revoke = useAction(() => api.revokeShare(share.id));
  const live = share.revokedAt === null && (share.expiresAt === null || Date.parse(share.expiresAt) > Date.now());
  return (
    <li className={live ? 'share' : 'share ended'}>
      <p className="url">
        <a href={share.url} target="_blank" rel="noreferrer">
          {share.url}
        </a>
      </p>
      <p className="meta">
        {share.follows === 'latest' ? `Follows the newest version (now ${share.version}) · ` : `Version ${share.version} · `}
        {share.hasPasscode ? 'Passcode · ' : ''}
        {share.revokedAt ? (
          <>
            Revoked <Time instant={share.revokedAt} />
          </>
        ) : share.expiresAt ? (
          <>
            {live ? 'Expires' : 'Expired'} <Time instant={share.expiresAt} />
          </>
        ) : (
          'Never expires'
        )}
        {' · '}
        {share.viewCount} {share.viewCount === 1 ? 'view' : 'views'}
        {share.lastViewedAt ? (
          <>
            , last <Time instant={share.lastViewedAt} />
          </>
        ) : null}
        {' · '}
        {share.downloadCount} {share.downloadCount === 1 ? 'download' : 'downloads'}
      </p>
      {live && (
        <div className="row">
          <CopyButton text={share.url} label="Copy URL" />
          <button
            type="button"
            className="danger"
            disabled={revoke.busy}
            onClick={() =>
              void revoke.run().then((s) => {
                if (s) onChanged(s);
              })
            }
          >
            {revoke.busy ? 'Revoking…' : 'Revoke'}
          </button>
        </div>
      )}
      <ErrorMessage error={revoke.error} />
    </li>
  );
}
