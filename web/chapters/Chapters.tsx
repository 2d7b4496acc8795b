import { useEffect, useRef, useState } from 'react';
import { momentIndex, momentTitle } from '../../sim/scenario/moments';
import { useLanguage } from '../i18n/i18n';
import { clock } from '../lab/format';
import { locationParams } from '../lab/url';
import type { LabSession } from '../lab/session';
import './chapters.css';
import { CHAPTER_TEXT } from './messages';
import { declaredMoments, findMoment, jumpTo, momentNames } from './moments';

export interface ChaptersProps {
  session: LabSession;
  /** The link's `moment=` (jumped to once, when the run opens). */
  linked?: string | undefined;
}

/** The moment to jump to when the next run opens: the link's when the page was opened, or one a
 * tour stop asks for (linkMoment). Used once: later URL rewrites keep or drop it. */
let pendingLink: string | null = typeof location === 'undefined' ? null : new URLSearchParams(locationParams()).get('moment');

/** Asks the next run that opens to show this chapter (a tour stop opening its scenario). */
export function linkMoment(name: string): void {
  pendingLink = name;
}

/** The scenario's chapters (its `moments:`): a list of buttons that jump to each; a link's
 * `moment=name` jumps once when the run opens, and an unknown name says what was expected. */
export function Chapters({ session, linked }: ChaptersProps) {
  const lang = useLanguage();
  const text = CHAPTER_TEXT[lang];
  const [problem, setProblem] = useState<string | null>(null);
  const target = linked ?? pendingLink;

  useEffect(() => {
    if (!target) return;
    pendingLink = null;
    const moment = findMoment(session, target);
    if (!moment) setProblem(`${text.unknown} "${target}": ${text.expected} ${momentNames(session).join(', ')}`);
    else if (!jumpTo(session, moment)) setProblem(`${text.unknown} "${target}": ${text.notInRun}`);
    // Once per run: the link names where the talk starts, not where it must stay.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session]);

  // On one scrolling row (presenter mode) the current chapter is kept in view.
  const nav = useRef<HTMLElement>(null);
  const index = session.index;
  useEffect(() => {
    const row = nav.current;
    const current = row?.querySelector('[data-current="true"]');
    // Only the row scrolls (scrollIntoView would scroll the page too, under the presenter's pointer).
    if (!row || !current || row.scrollWidth <= row.clientWidth) return;
    const box = row.getBoundingClientRect();
    const at = current.getBoundingClientRect();
    if (at.left < box.left || at.right > box.right) row.scrollLeft += at.left - box.left - 8;
  }, [index]);

  const moments = declaredMoments(session);
  if (moments.length === 0 && !problem) return null;
  return (
    <nav ref={nav} className="chapters" data-testid="chapters" aria-label={text.chapters}>
      <b>{text.chapters}</b>
      {moments.map((m) => {
        const i = momentIndex(m, session.frames);
        const at = i === undefined ? ('at' in m ? clock(m.at) : text.notReached) : clock(session.frames[i]!.t);
        const current = i !== undefined && i === session.index;
        return (
          <button
            key={m.name}
            data-testid={`chapter-${m.name}`}
            data-current={current}
            aria-current={current ? 'step' : undefined}
            onClick={() => {
              if (!jumpTo(session, m)) setProblem(`${text.unknown} "${m.name}": ${text.notInRun}`);
            }}
          >
            <span className="chapter-at">{at}</span> {momentTitle(m, lang)}
          </button>
        );
      })}
      {problem && (
        <span className="chapter-problem" data-testid="chapter-problem" role="alert">
          {problem}
        </span>
      )}
    </nav>
  );
}
