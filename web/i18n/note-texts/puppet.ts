import type { TranslationOf } from '../../../sim/notes/catalog';
import { verbatim } from '../../../sim/notes/catalog';
import type { PUPPET_NOTES } from '../../../sim/notes/puppet';
import { ptCount } from '../plural';

/** The Puppet agent's run in Portuguese (sim/notes/puppet.ts); Puppet's own log lines stay quoted. */
export const PUPPET_PT = {
  'puppet.agentLog': ({ line }) => verbatim(line),
  'puppet.agentStarted': ({ settings, resources }) =>
    `${verbatim(`puppet agent: ${settings}`)}; catálogo de ${ptCount(resources, 'resource')}`,
  'puppet.retrieving': ({ run, resources }) =>
    `execução ${run}: obtendo os fatos, o catálogo e o estado atual de ${ptCount(resources, 'resource')}`,
  'puppet.applying': ({ run, version, noop, order }) =>
    `execução ${run}: ${verbatim(`Applying configuration version '${version}'${noop ? ' (noop)' : ''}`)} — ordem ${order.join(' → ')}`,
  'puppet.willSet': ({ ref, values }) =>
    `${ref}: ${Object.entries(values)
      .map(([p, v]) => `${verbatim(p)} → ${verbatim(`'${v}'`)}`)
      .join(', ')}`,
  'puppet.willRestart': ({ ref, events }) => `${ref}: reinício (${ptCount(events, 'event')} na fila)`,
  'puppet.report': (r) =>
    `relatório da execução ${r.run}: ${verbatim(r.status)}, código de saída ${r.exitCode} — ${
      r.noop
        ? `${r.outOfSync} fora de conformidade, sem mudança (noop${r.corrective ? `, ${ptCount(r.corrective, 'corrective')}` : ''})`
        : `${ptCount(r.changes, 'change')}${r.corrective ? ` (${ptCount(r.corrective, 'corrective')})` : ''}`
    }, ${r.failed} com falha, ${ptCount(r.skipped, 'skipped')}${r.restarted ? `, ${ptCount(r.restarted, 'restarted')}` : ''}`,
  'puppet.nextRun': ({ span }) => `próxima execução em ${span}`,
  'puppet.runNow': () => 'SIGUSR1: executar agora',
  'puppet.newCatalog': ({ version, resources, settings }) =>
    `nova versão do catálogo ${version} (${ptCount(resources, 'resource')}), ${verbatim(settings)}: usada a partir da próxima execução`,
  'puppet.installsWillFail': ({ pkg, times }) =>
    `espelho do repositório quebrado para ${pkg}: ${
      times < 0
        ? 'todas as próximas instalações vão falhar'
        : times === 1
          ? 'a próxima instalação vai falhar'
          : `as próximas ${times} instalações vão falhar`
    }`,
  'puppet.published': ({ pkg, version }) => `o repositório publica ${pkg} ${version}`,
  'puppet.driftFailed': ({ ref, error }) => `o desvio em ${ref} falhou: ${verbatim(error)}`,
  'puppet.drifted': ({ change }) => `alterado fora do Puppet: ${verbatim(change)}`,
} satisfies TranslationOf<typeof PUPPET_NOTES>;
