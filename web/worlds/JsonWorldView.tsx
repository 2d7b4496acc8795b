import { useT } from '../i18n/i18n';
import type { WorldViewProps } from './types';

/** Any loop without a custom view: its world summary as readable JSON. */
export function JsonWorldView({ frame }: WorldViewProps) {
  const t = useT();
  return (
    <section className="world json-world" data-testid="world">
      <h3>{t('world')}</h3>
      <pre data-testid="world-json">{JSON.stringify(frame.world, null, 2)}</pre>
    </section>
  );
}
