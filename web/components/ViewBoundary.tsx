import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n';
import { PanelBoundary } from './PanelBoundary';

/**
 * A loop's view that throws on a frame (a loaded trace whose world has another shape than the
 * loop's summary) says which frame and why instead of leaving a blank page; the next frame retries.
 */
export function ViewBoundary({ loop, index, children }: { loop: string; index: number; children: ReactNode }) {
  return (
    <PanelBoundary name="world" resetKey={index} fallback={(error) => <ViewError loop={loop} index={index} error={error} />}>
      {children}
    </PanelBoundary>
  );
}

function ViewError({ loop, index, error }: { loop: string; index: number; error: string }) {
  const t = useT();
  return (
    <pre className="input-error" data-testid="view-error">
      frames.{index}.world: {t('viewCannotDraw')} {loop} ({error})
    </pre>
  );
}
