import { useEffect, useState } from 'react';
import LAYOUTS from 'virtual:loopscope-statecharts';
import { loopById } from '../../sim/loops/registry';
import { useLanguage } from '../i18n/i18n';
import type { LabSession } from '../lab/session';
import { deserializeLayout } from '../statechart/layout';
import { exportFigures, figureStem } from './figures';
import './export.css';
import { EXPORT_TEXT } from './messages';
import { svgToPng } from './png';

interface Download {
  id: string;
  label: string;
  name: string;
  url: string;
}

/** PNGs at twice the SVG's size: sharp on a 1920×1080 slide. */
const PNG_SCALE = 2;

/**
 * "Export": the statechart and the chart of the frame on screen as SVG and PNG, for slides. The files are
 * made when the menu opens (the moment the presenter chose) and offered as downloads.
 */
export function ExportMenu({ session, compact = false }: { session: LabSession; compact?: boolean }) {
  const lang = useLanguage();
  const text = EXPORT_TEXT[lang];
  const [files, setFiles] = useState<Download[] | null>(null);
  const [state, setState] = useState<'closed' | 'making' | 'open' | 'failed'>('closed');
  const machine = loopById(session.loop)?.binding.machine;
  const saved = machine ? LAYOUTS[machine.id] : undefined;
  useEffect(
    () => () => {
      for (const f of files ?? []) URL.revokeObjectURL(f.url);
    },
    [files],
  );
  if (!machine || !saved) return null;

  const open = async () => {
    setState('making');
    try {
      const figures = exportFigures({
        machine,
        layout: deserializeLayout(saved),
        loop: session.loop,
        scenario: session.scenarioName,
        frames: session.frames,
        index: session.index,
        config: session.config,
        lang,
      });
      const stem = figureStem(session.scenarioName, session.frame.t);
      const out: Download[] = [];
      const pictures = [
        ['statechart', text.statechart, figures.statechart] as const,
        ...(figures.chart ? [['chart', text.chart, figures.chart] as const] : []),
      ];
      for (const [kind, label, p] of pictures) {
        out.push({
          id: `${kind}-svg`,
          label: `${label} · SVG`,
          name: `${stem}-${kind}.svg`,
          url: URL.createObjectURL(new Blob([p.svg], { type: 'image/svg+xml' })),
        });
        out.push({
          id: `${kind}-png`,
          label: `${label} · PNG`,
          name: `${stem}-${kind}.png`,
          url: URL.createObjectURL(await svgToPng(p.svg, p.width, p.height, PNG_SCALE)),
        });
      }
      setFiles(out);
      setState('open');
    } catch {
      setState('failed');
    }
  };
  const close = () => {
    setFiles(null);
    setState('closed');
  };

  return (
    <span className="export-menu">
      <button
        data-testid="export-open"
        title={text.title}
        aria-label={text.export}
        aria-expanded={state === 'open'}
        onClick={() => (state === 'open' ? close() : void open())}
      >
        ⇩{compact ? '' : ` ${text.export}`}
      </button>
      {state !== 'closed' && (
        <span className="export-panel" role="group" aria-label={text.title} data-testid="export-panel">
          {state === 'making' && <span>{text.making}</span>}
          {state === 'failed' && <span className="input-error">{text.failed}</span>}
          {files?.map((f) => (
            <a key={f.id} data-testid={`export-${f.id}`} href={f.url} download={f.name}>
              {f.label}
            </a>
          ))}
          <button data-testid="export-close" onClick={close} aria-label={text.close} title={text.close}>
            ✕
          </button>
        </span>
      )}
    </span>
  );
}
