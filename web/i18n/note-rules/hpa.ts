import type { Rule } from './types';
import { N, P } from './types';

/** The Kubernetes HPA's condition reasons (ScalingActive/AbleToScale/ScalingLimited), in words. */
const REASONS: Record<string, string> = {
  DesiredWithinRange: 'dentro do intervalo',
  TooManyReplicas: 'acima do máximo',
  TooFewReplicas: 'abaixo do mínimo',
  ScaleDownStabilized: 'redução estabilizada',
  ScaleUpLimit: 'limite de aumento',
  ScaleDownLimit: 'limite de redução',
  ReadyForNewScale: 'pronto para nova escala',
};

/** The Incus HPA's decision sentences (machines/incus-hpa/policies) and world changes (sim/worlds/incus-hpa). */
export const HPA: Rule[] = [
  [
    new RegExp(`^avg ${P} < threshold/2 ${P}, ${N} pods = min ${N} → already at min: no scale action$`),
    'média $1 < limite/2 $2, $3 pods = mín. $4 → já no mínimo: nenhuma ação de escala',
  ],
  [
    new RegExp(`^avg ${P} < threshold/2 ${P}, ${N} pods > min ${N} → delete (\\S+) \\(last in the list\\)$`),
    'média $1 < limite/2 $2, $3 pods > mín. $4 → apagar $5 (o último da lista)',
  ],
  [
    new RegExp(`^avg ${P} < threshold/2 ${P}, ${N} pods > min ${N} → delete (\\S+) \\(oldest\\)$`),
    'média $1 < limite/2 $2, $3 pods > mín. $4 → apagar $5 (o mais antigo)',
  ],
  [
    new RegExp(`^avg ${P} ≥ threshold ${P}, ${N} pods < max ${N} → create ${N}(?: pods?)? \\+ remove ${N} stopped$`),
    'média $1 ≥ limite $2, $3 pods < máx. $4 → criar $5 + remover $6 parados',
  ],
  [
    new RegExp(`^avg ${P} ≥ threshold ${P}, ${N} pods < max ${N} → create ${N}(?: pods?)?$`),
    'média $1 ≥ limite $2, $3 pods < máx. $4 → criar $5',
  ],
  [
    new RegExp(`^avg ${P} ≥ threshold ${P}, ${N} pods = max ${N} → already at max: no scale action$`),
    'média $1 ≥ limite $2, $3 pods = máx. $4 → já no máximo: nenhuma ação de escala',
  ],
  [
    new RegExp(`^threshold/2 ${P} ≤ avg ${P} < threshold ${P} → no scale action$`),
    'limite/2 $1 ≤ média $2 < limite $3 → nenhuma ação de escala',
  ],
  [
    new RegExp(`^avg ${P}, ${N} pods: < threshold/2 ${P}, at min ${N} → no scale action$`),
    'média $1, $2 pods: < limite/2 $3, no mínimo $4 → nenhuma ação de escala',
  ],
  [
    new RegExp(`^avg ${P}, ${N} pods: ${N} starting: wait for it → no scale action$`),
    'média $1, $2 pods: $3 iniciando: esperar → nenhuma ação de escala',
  ],
  [
    new RegExp(`^avg ${P}, ${N} pods: within \\[${P}, ${P}\\) → no scale action$`),
    'média $1, $2 pods: dentro de [$3, $4) → nenhuma ação de escala',
  ],
  [
    new RegExp(`^avg ${P}, ${N} pods: ≥ threshold ${P}, at max ${N} → no scale action$`),
    'média $1, $2 pods: ≥ limite $3, no máximo $4 → nenhuma ação de escala',
  ],
  [new RegExp(`^${N} pods < min ${N} → create ${N} \\+ remove ${N} stopped$`), '$1 pods < mín. $2 → criar $3 + remover $4 parados'],
  [new RegExp(`^${N} pods < min ${N} → create ${N}$`), '$1 pods < mín. $2 → criar $3'],
  [new RegExp(`^${N} pods < min ${N} → scale ${N} → ${N}$`), '$1 pods < mín. $2 → escalar $3 → $4'],
  [new RegExp(`^${N} pods running, min ${N} > ${N} → create ${N} pods?$`), '$1 pods em execução, mín. $2 > $3 → criar $4'],
  [/^created a pod$/, 'pod criado'],
  [/^created (\S+)$/, 'criado $1'],
  [
    /^(kill|stress|delete) (\S+): no such instance \(already gone\)$/,
    (_m, what, name) =>
      `${what === 'kill' ? 'matar' : what === 'stress' ? 'estressar' : 'apagar'} ${name}: instância inexistente (já removida)`,
  ],
  [/^create (\S+): an instance of that name already exists$/, 'criar $1: já existe uma instância com esse nome'],
  [
    /^someone created (\S+)( \(not owned by the HPA\))?$/,
    (_m, name, unowned) => `alguém criou ${name}${unowned ? ' (não pertence ao HPA)' : ''}`,
  ],
  [/^someone deleted (\S+)$/, 'alguém apagou $1'],
  [/^controller restart$/, 'reinício do controlador'],
  [
    /^the next created name sorts after (\d+) instances?$/,
    (_m, n) => `o próximo nome criado fica depois de ${n} ${n === '1' ? 'instância' : 'instâncias'}`,
  ],
  [/^config: min (\d+), max (\d+), threshold ([\d.]+%), policy (\S+)$/, 'configuração: mín. $1, máx. $2, limite $3, política $4'],
  [/^deleted$/, 'apagado'],
  [/^killed (\S+)$/, '$1 morto (kill)'],
  [/^stress (\S+) → (\S+)$/, 'estresse em $1 → $2'],
  [/^demand → (\S+)$/, 'demanda → $1'],
  [new RegExp(`^next ${N} API calls fail$`), 'as próximas $1 chamadas à API falham'],
  [new RegExp(`^API ${N}× slower for (\\S+)$`), 'API $1× mais lenta por $2'],
  [/^error: Instance is running \(retry #(\d+)\)$/, 'erro: ⟦Instance is running⟧ (nova tentativa nº $1)'],
  [
    /^error: Incus API unavailable \(injected failure\) \(retry #(\d+)\)$/,
    'erro: ⟦Incus API unavailable⟧ (falha injetada) (nova tentativa nº $1)',
  ],
  [/^error: (.*) \(retry #(\d+)\)$/, 'erro: ⟦$1⟧ (nova tentativa nº $2)'],
];

/** Pieces of the HPA controller's own reasoning (machines/hpa-algorithm), translated wherever they appear. */
export const HPA_ALGORITHM: Rule[] = [
  [/utilisation ([\d.]+%) vs target ([\d.]+%): /g, 'utilização $1 vs alvo $2: '],
  [
    /ratio ([\d.]+) with missing\/unready pods counted: within tolerance or the direction flips, keep → /g,
    'razão $1 contando pods ausentes/não prontos: dentro da tolerância ou a direção se inverte, manter → ',
  ],
  [/ratio ([\d.]+) within tolerance → /g, 'razão $1 dentro da tolerância → '],
  [/ ready\)/g, ' prontos)'],
  [/ pods incl\. missing\/unready\)/g, ' pods incl. ausentes/não prontos)'],
  [/ScaleDownStabilized to ([\d.]+) \(max in (\S+)\)/g, 'redução estabilizada (⟦ScaleDownStabilized⟧) em $1 (máx. em $2)'],
  // The HPA's condition reasons are the API's words: said in Portuguese, the reason quoted after it.
  [
    /(\()?(?<!⟦)\b(DesiredWithinRange|TooManyReplicas|TooFewReplicas|ScaleDownStabilized|ScaleUpLimit|ScaleDownLimit|ReadyForNewScale)\b(\))?/g,
    (_m, open, reason = '', close) =>
      open && close ? `(${REASONS[reason]}: ⟦${reason}⟧)` : `${open ?? ''}${REASONS[reason]} (⟦${reason}⟧)${close ?? ''}`,
  ],
  [/^FailedGetResourceMetric: (.+?) → keep ([\d.]+)$/g, '⟦FailedGetResourceMetric: $1⟧ → manter $2'],
  [/stabilised to ([\d.]+)/g, 'estabilizado em $1'],
  [/→ keep ([\d.]+)/g, '→ manter $1'],
  [/→ keep$/g, '→ manter'],
  [/→ scale ([\d.]+) → ([\d.]+)/g, '→ escalar $1 → $2'],
  [/seed rule: /g, 'regra da semente: '],
  [/avg ([\d.]+%) < threshold\/2 ([\d.]+%)/g, 'média $1 < limite/2 $2'],
  [/avg ([\d.]+%) ≥ threshold ([\d.]+%)/g, 'média $1 ≥ limite $2'],
  [/threshold\/2 ([\d.]+%) ≤ avg ([\d.]+%) < threshold ([\d.]+%)/g, 'limite/2 $1 ≤ média $2 < limite $3'],
  [/([\d.]+) pods ([=<>]) min ([\d.]+)/g, '$1 pods $2 mín. $3'],
  [/([\d.]+) pods ([=<>]) max ([\d.]+)/g, '$1 pods $2 máx. $3'],
  [/([\d.]+) pods running, min ([\d.]+) > ([\d.]+)/g, '$1 pods em execução, mín. $2 > $3'],
  [/no scale action/g, 'nenhuma ação de escala'],
  [/one pod fewer/g, 'um pod a menos'],
  [/one more pod/g, 'um pod a mais'],
];
