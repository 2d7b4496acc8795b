import { useMemo } from 'react';
import type { Frame, Phase } from '../../sim/trace';
import { useLanguage, useT } from '../i18n/i18n';
import { NoteText } from '../i18n/NoteText';
import type { MessageKey } from '../i18n/messages';
import { clock } from '../lab/format';
import { eventPhrase, statePhrase } from '../statechart/labels';
import { bannerOf } from './banner';

const EXPLAIN: Record<Phase, MessageKey> = {
  observe: 'phaseObserve',
  compare: 'phaseCompare',
  act: 'phaseAct',
  wait: 'phaseWait',
  error: 'phaseError',
};

export interface PhaseBannerProps {
  loop: string;
  /** The recorded frames and the index of the one on screen. */
  frames: readonly Frame[];
  index: number;
  time: number;
}

/** The newest note since the loop last began observing (older notes belong to an earlier cycle: not shown). */
function cycleNote(frames: readonly Frame[], index: number): Frame | undefined {
  for (let i = index; i >= 0; i--) {
    const f = frames[i]!;
    if (f.note) return f;
    if (f.phase === 'observe' && frames[i - 1]?.phase !== 'observe') return undefined;
  }
  return undefined;
}

/** OBSERVE / COMPARE / ACT / WAIT in large type, and the controller's own summary of this cycle:
 * what it observed, compared, decided, and what its act did (bannerOf: frame.controller, never a note). */
export function PhaseBanner({ loop, frames, index, time }: PhaseBannerProps) {
  const t = useT();
  const lang = useLanguage();
  const frame = frames[index]!;
  // A frame is never changed once recorded; a fork replaces frames, so the frame object is the key.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- frames grows in place: the frame, not the array, says it changed
  const lines = useMemo(() => bannerOf(loop)(frames, index, lang), [loop, frames, index, lang, frame]);
  const latest = cycleNote(frames, index);
  const row = (key: MessageKey, text: string, testid: string, emptyKey: MessageKey) => (
    <div className={`banner-row${text ? '' : ' empty'}`}>
      <span className="banner-key">{t(key)}</span>
      <span className="banner-value" data-testid={testid}>
        {text || t(emptyKey)}
      </span>
    </div>
  );
  return (
    <section className={`banner phase-${frame.phase}`} data-testid="phase-banner">
      <div className="phase-head">
        <div className="phase-name" data-testid="phase" data-phase={frame.phase}>
          {t(frame.phase).toUpperCase()}
        </div>
        <div className="phase-explain">{t(EXPLAIN[frame.phase])}</div>
      </div>
      <div className="phase-detail">
        {frame.controller ? (
          <>
            {row('bannerObserved', lines.observed, 'observed', 'bannerNothingYet')}
            {row('bannerCompared', lines.compared, 'compared', 'bannerNothingYet')}
            {row('decision', lines.decided, 'decision', 'noDecision')}
            {row('bannerActed', lines.acted, 'acted', 'bannerNoAct')}
          </>
        ) : (
          <div className="banner-row empty">{t('notRecorded')}</div>
        )}
        <div className="status-line">
          <span className="latest" data-testid="note">
            {latest ? (
              <>
                <span className="at">@{clock(latest.t)}</span> <NoteText loop={loop} frame={latest} />
              </>
            ) : (
              ''
            )}
          </span>
          {/* The state and the event in words; the machine's ids in the tooltip and data-machine-id (the CLI prints the ids). */}
          <span>
            {t('state')}:{' '}
            <span data-testid="state" data-machine-id={frame.state} title={frame.state}>
              {statePhrase(loop, frame.state, lang)}
            </span>
          </span>
          <span>
            {t('time')}: <code data-testid="time">{clock(time)}</code>
          </span>
          <span className="event">
            {t('bannerEvent')}:{' '}
            <span data-testid="event" data-machine-id={frame.event} title={frame.event}>
              {eventPhrase(loop, frame.event, lang)}
            </span>
          </span>
        </div>
      </div>
    </section>
  );
}
