import { useT } from '../../i18n/i18n';
import { TextConfigEditor } from '../TextConfigEditor';
import type { WorldViewProps } from '../types';
import { configToYaml, parseConfigEdit } from './configEdit';

/** The desired state as hpa.yaml: an invalid edit shows its errors and changes nothing. */
export function IncusHpaConfigEditor({ session }: WorldViewProps) {
  const t = useT();
  const running = () => session.runnerOf('incus-hpa')!.config;
  return (
    <TextConfigEditor
      title={t('desiredState')}
      applyLabel={t('apply')}
      appliedLabel={t('applied')}
      rows={7}
      initialText={() => configToYaml(running())}
      submit={(text) => {
        const result = parseConfigEdit(text, running());
        if (!result.ok) return result.errors;
        session.update(result.change);
        return [];
      }}
    />
  );
}
