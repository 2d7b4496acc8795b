import type { SystemdConfig } from '../../../sim/loops/systemd-restart';
import { useT } from '../../i18n/i18n';
import { TextConfigEditor } from '../TextConfigEditor';
import type { WorldViewProps } from '../types';
import { parseUnitEdit, unitToText } from './unitEdit';

/** The unit file's restart keys: an invalid edit shows its errors and changes nothing; a valid one is
 * a daemon-reload (the binding's CONFIG.UPDATE, as a timeline `unit:` entry). */
export function SystemdRestartUnitEditor({ session }: WorldViewProps) {
  const t = useT();
  const running = () => session.runnerOf('systemd-restart')!.config.unit;
  return (
    <TextConfigEditor
      title={t('unitFileEditor')}
      applyLabel={t('apply')}
      appliedLabel={t('unitReloaded')}
      rows={8}
      initialText={() => unitToText(running())}
      submit={(text) => {
        const result = parseUnitEdit(text, running());
        if (!result.ok) return result.errors;
        session.update({ unit: result.unit } satisfies Partial<SystemdConfig>);
        return [];
      }}
    />
  );
}
