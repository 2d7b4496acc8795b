import type { ComponentProps } from 'react';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createRunner, parseScenarioText } from '../../sim/loops/registry';
import { Controls } from '../components/Controls';
import { PanelBoundary } from '../components/PanelBoundary';
import { bannerOf } from '../components/banner';
import { useShortcuts } from '../components/useShortcuts';
import { useLanguage, useT } from '../i18n/i18n';
import { NoteText } from '../i18n/NoteText';
import { clock } from '../lab/format';
import type { ScenarioListing } from '../lab/scenarios';
import { LabSession } from '../lab/session';
import { usePlayLoop } from '../lab/usePlayLoop';
import { SCENARIO_POLICY } from '../lab/url-check';
import { viewsFor } from '../worlds/views';
import './compare.css';
import { CompareInterventions } from './CompareInterventions';
import { CompareSession } from './CompareSession';
import type { Divergence } from './divergence';
import { decisionOf, divergences, ownPolicyOf } from './divergence';
import { COMPARE_TEXT } from './messages';
import { PaneChart } from './PaneChart';

export interface ComparePageProps {
  listing: ScenarioListing;
  seed: number | undefined;
  /** The columns' policies; SCENARIO_POLICY keeps the scenario's own value (any value its format accepts). */
  columns: readonly string[];
  onColumns(columns: string[]): void;
  policies: readonly string[];
  onExit(): void;
  /** The virtual time (ms) the panes open at: the lab's when switched from it, the link's `t`; 0 if absent. */
  startAt?: number;
}

/** One run per column, same scenario text, same seed: only the policy differs. */
function runnerFor(listing: ScenarioListing, seed: number | undefined, column: string, checkpoints: boolean) {
  const { entry, scenario } = parseScenarioText(listing.file, listing.id, listing.text, seed);
  const runner = createRunner(entry, scenario, { checkpoints, ...(column === SCENARIO_POLICY ? {} : { policy: column }) });
  return { runner, scenario };
}

/** The scenario's own policy (ownPolicyOf) and whether it is one of the named ones: then its column would repeat that
 * one; a policy the names do not cover, such as a user's policy module, gets its own "scenario's own" column. */
function useOwnPolicy(listing: ScenarioListing, policies: readonly string[]): { own: string | undefined; named: boolean } {
  return useMemo(() => {
    try {
      const own = ownPolicyOf(listing.loop, runnerFor(listing, undefined, SCENARIO_POLICY, false).runner);
      return { own, named: own !== undefined && policies.includes(own) };
    } catch {
      return { own: undefined, named: false };
    }
  }, [listing, policies]);
}

/** The whole run of each column, computed once and unshown (it finds where the decisions part), in slices of
 * ~30 ms between frames of the page, so a long scenario (hours of virtual time) never freezes it; null until done. */
function useDivergences(
  listing: ScenarioListing,
  seed: number | undefined,
  columns: readonly string[],
  faults: CompareSession['faults'],
): Divergence[] | null {
  const [marks, setMarks] = useState<Divergence[] | null>(null);
  useEffect(() => {
    setMarks(null);
    const decide = decisionOf(listing.loop);
    if (!decide) {
      setMarks([]);
      return;
    }
    const runs = columns.map((c) => runnerFor(listing, seed, c, false));
    // Each run meets the page's faults at their times, as the panes did.
    const pending = runs.map(() => [...faults]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const slice = () => {
      const until = performance.now() + 30;
      runs.forEach(({ runner, scenario }, i) => {
        while (performance.now() < until) {
          const fault = pending[i]![0];
          const next = runner.nextEventAt;
          if (fault && (next === undefined || next > fault.t)) {
            runner.run(fault.t);
            runner.inject(fault.fault);
            pending[i]!.shift();
            continue;
          }
          if (next === undefined || next > scenario.durationMs) break;
          runner.processNext();
        }
      });
      const done = runs.every(({ runner, scenario }, i) => {
        const next = runner.nextEventAt;
        return pending[i]!.length === 0 && (next === undefined || next > scenario.durationMs);
      });
      if (done)
        setMarks(
          divergences(
            runs.map(({ runner }) => runner.frames),
            decide,
          ),
        );
      else timer = setTimeout(slice, 0);
    };
    timer = setTimeout(slice, 0);
    return () => clearTimeout(timer);
  }, [listing, seed, columns, faults]);
  return marks;
}

/**
 * Side by side: the same scenario and seed under two or three policies, in synced panes
 * that step, play and rewind together; the moments where their decisions part are marked on a shared
 * timeline, and a pane whose decision differs from the first column's is flagged.
 */
export function ComparePage({ listing, seed, columns, onColumns, policies, onExit, startAt }: ComparePageProps) {
  const t = useT();
  const text = COMPARE_TEXT[useLanguage()];
  // Where new panes open: first the given time, then (another set of columns) wherever the page has got to.
  const openAt = useRef(startAt ?? 0);
  const compare = useMemo(() => {
    const panes = columns.map((c) => {
      const { runner, scenario } = runnerFor(listing, seed, c, true);
      return {
        session: new LabSession({ kind: 'sim', runner, durationMs: scenario.durationMs, scenario: scenario.name }),
        duration: scenario.durationMs,
      };
    });
    const made = new CompareSession(
      panes.map((p) => p.session),
      panes[0]!.duration,
    );
    if (openAt.current > 0) made.advanceTo(openAt.current);
    return made;
  }, [listing, seed, columns]);
  useSyncExternalStore(compare.subscribe, compare.getVersion);
  openAt.current = compare.time;
  const marks = useDivergences(listing, seed, columns, compare.faults);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(10);
  usePlayLoop(compare, playing, speed, () => setPlaying(false));
  const step = useCallback(() => {
    setPlaying(false);
    compare.step();
  }, [compare]);
  const stepBack = useCallback(() => {
    setPlaying(false);
    compare.stepBack();
  }, [compare]);
  const togglePlay = useCallback(() => setPlaying((p) => !p && !compare.finished), [compare]);
  useShortcuts({ togglePlay, step, stepBack, speed, setSpeed });
  const own = useOwnPolicy(listing, policies);
  const seek = (at: number) => {
    setPlaying(false);
    compare.advanceTo(at);
  };
  const decide = decisionOf(listing.loop);
  const values = compare.panes.map((p) => (decide ? decide(p.frame) : null));
  const label = (c: string) => (c === SCENARIO_POLICY ? `${text.scenarioPolicy}${own.own && !own.named ? ` (${own.own})` : ''}` : c);
  const describe = describeMark(text, columns.map(label));
  const axis = [0, compare.durationMs] as const;

  return (
    <div className="compare" data-testid="compare" data-loop={listing.loop} data-columns={columns.join(',')}>
      <div className="compare-bar">
        <Controls
          playing={playing}
          speed={speed}
          canStepBack={compare.time > 0}
          onTogglePlay={togglePlay}
          onStep={step}
          onStepBack={stepBack}
          onReset={() => seek(0)}
          onSpeed={setSpeed}
        />
        <span className="compare-time">
          {t('time')}: <code data-testid="compare-time">{clock(compare.time)}</code>
        </span>
        <span className="compare-columns" role="group" aria-label={text.columns}>
          <span className="muted">{text.columns}:</span>
          {[...(own.named && !columns.includes(SCENARIO_POLICY) ? [] : [SCENARIO_POLICY]), ...policies].map((p) => {
            const on = columns.includes(p);
            const next = on ? columns.filter((c) => c !== p) : [...columns, p];
            return (
              <label key={p}>
                <input
                  type="checkbox"
                  data-testid={`compare-column-${p}`}
                  checked={on}
                  disabled={next.length < 2 || next.length > 3}
                  onChange={() => onColumns(next)}
                />{' '}
                {label(p)}
              </label>
            );
          })}
        </span>
        <button data-testid="compare-exit" onClick={onExit}>
          ✕ {text.back}
        </button>
        {listing.loop === 'incus-hpa' && <CompareInterventions compare={compare} />}
      </div>
      <DivergenceTimeline marks={marks} time={compare.time} duration={compare.durationMs} describe={describe} onSeek={seek} />
      <div className="compare-panes" style={{ gridTemplateColumns: `repeat(${columns.length}, minmax(0, 1fr))` }}>
        {compare.panes.map((session, i) => (
          <PanelBoundary key={`${columns[i]}-${session.id}`} name={`pane ${columns[i]}`} resetKey={session}>
            <Pane
              session={session}
              policy={label(columns[i]!)}
              value={values[i] ?? null}
              differs={values[i] !== values[0]}
              time={compare.time}
              chart={{ axisMs: axis, marks, describe, onSeek: seek }}
            />
          </PanelBoundary>
        ))}
      </div>
    </div>
  );
}

/** A mark's words: when, which way, and what each column decided then. */
const describeMark =
  (text: (typeof COMPARE_TEXT)[keyof typeof COMPARE_TEXT], columns: readonly string[]) =>
  (m: Divergence): string =>
    `${clock(m.t)} ${m.kind === 'diverge' ? text.diverge : text.converge}: ${m.values.map((v, i) => `${columns[i]} ${v ?? '–'}`).join(' · ')}`;

function DivergenceTimeline({
  marks,
  time,
  duration,
  describe,
  onSeek,
}: {
  marks: Divergence[] | null;
  time: number;
  duration: number;
  describe(m: Divergence): string;
  onSeek(t: number): void;
}) {
  const text = COMPARE_TEXT[useLanguage()];
  const pct = (t: number) => `${(100 * t) / Math.max(1, duration)}%`;
  return (
    <section className="compare-timeline" aria-label={text.timeline}>
      <div
        className="compare-track"
        data-testid="compare-track"
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          onSeek(Math.round(((e.clientX - r.left) / r.width) * duration));
        }}
      >
        {(marks ?? []).map((m) => (
          <button
            key={`${m.kind}-${m.t}`}
            className={`compare-mark ${m.kind}`}
            data-testid="divergence"
            data-kind={m.kind}
            data-t={m.t}
            style={{ left: pct(m.t) }}
            title={describe(m)}
            aria-label={describe(m)}
            onClick={(e) => {
              e.stopPropagation();
              onSeek(m.t);
            }}
          />
        ))}
        <span className="compare-now" style={{ left: pct(time) }} />
      </div>
      <div className="compare-marks-list" data-testid="divergence-list" data-ready={marks !== null}>
        {marks === null ? (
          <span className="muted">{text.finding}</span>
        ) : marks.length === 0 ? (
          <span className="muted">{text.noDivergence}</span>
        ) : (
          marks
            .filter((m) => m.kind === 'diverge')
            .map((m) => (
              <button key={m.t} data-testid="divergence-jump" onClick={() => onSeek(m.t)} title={describe(m)}>
                ≠ {clock(m.t)}
              </button>
            ))
        )}
      </div>
    </section>
  );
}

type PaneChartPlacement = Pick<ComponentProps<typeof PaneChart>, 'axisMs' | 'marks' | 'describe' | 'onSeek'>;

/** One column: the policy, its phase, decision and latest note, then the loop's own world view and, below it, its chart. */
function Pane({
  session,
  policy,
  value,
  differs,
  time,
  chart,
}: {
  session: LabSession;
  policy: string;
  value: number | null;
  differs: boolean;
  time: number;
  chart: PaneChartPlacement;
}) {
  const t = useT();
  const lang = useLanguage();
  const text = COMPARE_TEXT[lang];
  useSyncExternalStore(session.subscribe, session.getVersion);
  const frame = session.frame;
  const views = viewsFor(session.loop);
  const lines = bannerOf(session.loop)(session.frames, session.index, lang);
  const note = session.noteFrame();
  return (
    <section
      className={`compare-pane phase-${frame.phase}${differs ? ' differs' : ''}`}
      data-testid="compare-pane"
      data-policy={policy}
      data-time={time}
      data-frame-t={frame.t}
      data-decided={value ?? ''}
      data-differs={differs}
    >
      <header className="pane-head">
        <b className="pane-policy">{policy}</b>
        <span className="phase-name" data-testid="pane-phase">
          {t(frame.phase).toUpperCase()}
        </span>
        <span className="pane-decided">
          {text.decided}: <b data-testid="pane-decided">{value ?? '–'}</b>
          {differs && <span className="pane-differs"> ≠ {text.differs}</span>}
        </span>
      </header>
      <div className="pane-lines">
        {lines.decided && (
          <div data-testid="pane-decision">
            {t('decision')}: {lines.decided}
          </div>
        )}
        {note && (
          <div className="pane-note">
            @{clock(note.t)} <NoteText loop={session.loop} frame={note} />
          </div>
        )}
      </div>
      <div className="pane-world">
        <views.World session={session} frame={frame} />
      </div>
      {views.Charts && <PaneChart session={session} frame={frame} {...chart} />}
    </section>
  );
}
