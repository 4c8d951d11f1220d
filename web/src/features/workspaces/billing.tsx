/**
 * A workspace's money, for its admins (docs/api.md "Workspaces and projects", "Rates"): its
 * currency and who sees rates and amounts, then the workspace rate and each member's own rate.
 */
import { useMemo, useState } from 'react';
import { api, type RatesVisibleTo, type Workspace } from '../../lib/api.js';
import { currencyCodes, currencyName } from '../../lib/money.js';
import { useSession } from '../../lib/session.js';
import { ErrorMessage, Form, Loaded, SelectField, Status, useAction, useLoad } from '../../components/ui/ui.js';
import { MemberRates, RateLevelPanel } from './rates.js';

const WHO_SEES_RATES: readonly (readonly [RatesVisibleTo, string])[] = [
  ['admins', 'Workspace admins and owners'],
  ['members', 'Every member'],
];

export function BillingSettings({ workspace, onSaved }: { workspace: Workspace; onSaved: (workspace: Workspace) => void }) {
  const { me } = useSession();
  const [currency, setCurrency] = useState(workspace.currency);
  const [visibleTo, setVisibleTo] = useState<RatesVisibleTo>(workspace.ratesVisibleTo);
  const [saved, setSaved] = useState(false);
  const options = useMemo(
    () => currencyCodes(workspace.currency).map((code) => [code, `${code} · ${currencyName(code, me.locale)}`] as const),
    [workspace.currency, me.locale],
  );
  const save = useAction(() => api.patchWorkspace(workspace.id, { currency, ratesVisibleTo: visibleTo }));
  const unchanged = currency === workspace.currency && visibleTo === workspace.ratesVisibleTo;
  const submit = async () => {
    setSaved(false);
    const changed = await save.run();
    if (changed) {
      onSaved(changed);
      setSaved(true);
    }
  };
  return (
    <section aria-labelledby="billing-heading" className="card">
      <h2 id="billing-heading">Billing</h2>
      <Form onSubmit={submit} aria-labelledby="billing-heading">
        <div className="inline-form short-fields">
          <SelectField
            label="Currency"
            value={currency}
            onChange={(value) => {
              setCurrency(value);
              setSaved(false);
            }}
            options={options}
          />
          <SelectField
            label="Who sees rates and amounts"
            value={visibleTo}
            onChange={(value) => {
              setVisibleTo(value as RatesVisibleTo);
              setSaved(false);
            }}
            options={WHO_SEES_RATES}
          />
        </div>
        <p className="hint">
          Rates are set in the workspace's currency; a rate keeps the currency it was set in. A report shows amounts only when its owner may
          see the rates of every workspace it covers.
        </p>
        <div className="row form-actions">
          <button type="submit" disabled={save.busy || unchanged}>
            {save.busy ? 'Saving…' : 'Save billing settings'}
          </button>
        </div>
        <ErrorMessage error={save.error} />
        {saved ? <Status>Saved.</Status> : null}
      </Form>
    </section>
  );
}

/** The workspace rate, and each member's own rate, which comes before it. */
export function WorkspaceRates({ workspace }: { workspace: Workspace }) {
  const members = useLoad(() => api.members(workspace.id), [workspace.id]);
  return (
    <section aria-labelledby="rates-heading" className="card">
      <h2 id="rates-heading">Rates</h2>
      <p className="hint">
        An entry takes the first rate in force on its day among: its person's rate on its project, its project's rate, its person's rate
        here, then the workspace rate. Only workspace admins and owners see and set rates.
      </p>
      <RateLevelPanel
        level={{ kind: 'workspace', workspaceId: workspace.id }}
        currency={workspace.currency}
        title="Workspace rate"
        empty="No workspace rate yet: entries have no amount unless a more specific rate applies. Set one below, from the day it starts."
      />
      <section aria-labelledby="member-rates-heading" className="rate-level">
        <h3 id="member-rates-heading">Member rates</h3>
        <Loaded state={members} what="members">
          {(data) => (
            <MemberRates
              people={data}
              levelOf={(userId) => ({ kind: 'workspaceMember', workspaceId: workspace.id, userId })}
              currency={workspace.currency}
              empty={(name) => `${name} has no rate of their own in this workspace: the workspace rate applies. Set one below.`}
            />
          )}
        </Loaded>
      </section>
    </section>
  );
}
