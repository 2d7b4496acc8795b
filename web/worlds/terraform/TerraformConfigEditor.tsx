import type { TerraformLoopConfig } from '../../../sim/loops/terraform';
import { useLanguage } from '../../i18n/i18n';
import { TextConfigEditor } from '../TextConfigEditor';
import type { WorldViewProps } from '../types';
import { parseResourcesEdit, resourcesToYaml } from './configEdit';
import { TERRAFORM_TEXT } from './messages';

/** The configuration (the scenario's `resources:`), edited live: an invalid edit lists its errors and
 * changes nothing; a valid one is a CONFIG.UPDATE the next run plans against. */
export function TerraformConfigEditor({ session }: WorldViewProps) {
  const text = TERRAFORM_TEXT[useLanguage()];
  return (
    <TextConfigEditor
      title={text.editor}
      applyLabel={text.apply}
      appliedLabel={text.applied}
      rows={10}
      lang="en"
      initialText={() => resourcesToYaml(session.runnerOf('terraform')!.config.resources)}
      submit={(source) => {
        const result = parseResourcesEdit(source);
        if (!result.ok) return result.errors;
        session.update({ resources: result.resources } satisfies Partial<TerraformLoopConfig>);
        return [];
      }}
    />
  );
}
