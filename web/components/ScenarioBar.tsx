import { loopById } from '../../sim/loops/registry';
import type { Trace } from '../../sim/trace';
import { useT } from '../i18n/i18n';
import { LANGUAGES } from '../i18n/messages';
import { PAGE_TRACES } from '../lab/page-files';
import { groupScenarios } from '../lab/scenarioGroups';
import { SCENARIOS } from '../lab/scenarios';
import { LIVE_MESSAGES } from '../live/messages';
import type { LabUrl } from '../lab/url';
import { TraceLoader } from './TraceLoader';
import { isOneOf } from '../../sim/one-of';

export interface ScenarioBarProps {
  url: LabUrl;
  loop: string | undefined;
  onChange(patch: Partial<LabUrl>): void;
  onTrace(trace: Trace, fileName: string): void;
  /** Opens one of the traces the page carries (`loopscope lab run.json`), by its number. */
  onPageTrace?(index: number): void;
  /** The loaded trace file, when the lab shows one. */
  traceName: string | undefined;
  /** Opens live mode (web/live/): watch a running `loopscope real --live`. */
  onLive?(): void;
  /** Opens the inspector (web/inspect/): only when the lab was started with --inspect. */
  onInspect?(): void;
}

/** The lab's top bar: home, scenario, seed, policy, language, presenter mode. */
export function ScenarioBar({ url, loop, onChange, onTrace, onPageTrace, traceName, onLive, onInspect }: ScenarioBarProps) {
  const t = useT();
  const policies = loopById(loop)?.policies?.names;
  return (
    <header className="topbar">
      <a
        className="brand"
        href="./"
        data-testid="home-link"
        onClick={(e) => {
          e.preventDefault();
          onChange({ loop: undefined, scenario: undefined, seed: undefined, policy: undefined });
        }}
      >
        loopscope
      </a>
      <label>
        {t('scenario')}{' '}
        <select
          data-testid="scenario-select"
          value={url.scenario ?? ''}
          onChange={(e) => {
            const s = SCENARIOS.find((x) => x.id === e.target.value);
            if (s) onChange({ loop: s.loop, scenario: s.id, seed: undefined });
          }}
        >
          <option value="" disabled>
            —
          </option>
          {groupScenarios(SCENARIOS).map((g) => (
            <optgroup
              key={g.kind === 'loop' ? g.loop : g.kind}
              data-group={g.kind}
              label={g.kind === 'talk' ? t('talkGroup') : g.kind === 'checks' ? t('checksGroup') : g.loop}
            >
              {g.scenarios.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.id}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <label>
        {t('seed')}{' '}
        <input
          data-testid="seed"
          type="number"
          min={0}
          step={1}
          value={url.seed ?? ''}
          placeholder="—"
          style={{ width: '5em' }}
          onChange={(e) => {
            const v = e.target.value;
            onChange({ seed: /^\d+$/.test(v) ? Number(v) : undefined });
          }}
        />
      </label>
      {policies && (
        <label>
          {t('policy')}{' '}
          <select data-testid="policy-select" value={url.policy ?? ''} onChange={(e) => onChange({ policy: e.target.value || undefined })}>
            <option value="">({t('scenario').toLowerCase()})</option>
            {policies.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
      )}
      {onPageTrace && PAGE_TRACES.length > 0 && (
        <label>
          {t('traceLoaded')}{' '}
          <select
            data-testid="page-trace"
            value={url.trace ?? ''}
            onChange={(e) => {
              if (e.target.value !== '') onPageTrace(Number(e.target.value));
            }}
          >
            <option value="" disabled>
              —
            </option>
            {PAGE_TRACES.map((f, i) => (
              <option key={`${i}:${f.name}`} value={i}>
                {f.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {traceName && (url.trace === undefined || !onPageTrace) && (
        <span className="trace-name" data-testid="trace-name">
          {t('traceLoaded')}: {traceName}
        </span>
      )}
      <TraceLoader onTrace={onTrace} />
      {onLive && (
        <button data-testid="live-open" onClick={onLive}>
          ● {LIVE_MESSAGES[url.lang].live}
        </button>
      )}
      {onInspect && (
        <button data-testid="inspect-open" onClick={onInspect}>
          {t('inspectOpen')}
        </button>
      )}
      <span className="spacer" />
      <label>
        {t('language')}{' '}
        <select
          data-testid="lang-select"
          value={url.lang}
          onChange={(e) => {
            const lang = e.target.value;
            if (isOneOf(LANGUAGES, lang)) onChange({ lang });
          }}
        >
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {l === 'en' ? 'English' : 'Português (BR)'}
            </option>
          ))}
        </select>
      </label>
      <button data-testid="presenter-toggle" onClick={() => onChange({ presenter: !url.presenter })}>
        {url.presenter ? t('exitPresenter') : t('presenter')}
      </button>
    </header>
  );
}
