import type { Language } from './messages';

/**
 * A frame's note in the UI language. Notes are written by the loop bindings in English (the CLI
 * prints them too); the lab translates loopscope's own sentences here, rule by rule, and keeps
 * what the real tool prints (a journal line, Terraform's or Puppet's output, an Incus error, a
 * Kubernetes event) as it is, marked as quoted English (`verbatim`: rendered with lang="en").
 */
export interface NotePart { text: string; verbatim?: boolean }

/** A rule's template: `$1` … are the match's groups; ⟦…⟧ marks quoted tool output. */
type Rule = readonly [RegExp, string];

const N = String.raw`([\d.]+)`;
const P = String.raw`([\d.]+%)`;

/** The Incus HPA's decision sentences (machines/incus-hpa/policies) and world changes (sim/worlds/hpa). */
const HPA: Rule[] = [
  [new RegExp(`^avg ${P} < threshold/2 ${P}, ${N} pods = min ${N} → already at min: no scale action$`), 'média $1 < limite/2 $2, $3 pods = mín. $4 → já no mínimo: nenhuma ação de escala'],
  [new RegExp(`^avg ${P} < threshold/2 ${P}, ${N} pods > min ${N} → delete (\\S+) \\(last in the list\\)$`), 'média $1 < limite/2 $2, $3 pods > mín. $4 → apagar $5 (o último da lista)'],
  [new RegExp(`^avg ${P} < threshold/2 ${P}, ${N} pods > min ${N} → delete (\\S+) \\(oldest\\)$`), 'média $1 < limite/2 $2, $3 pods > mín. $4 → apagar $5 (o mais antigo)'],
  [new RegExp(`^avg ${P} ≥ threshold ${P}, ${N} pods < max ${N} → create ${N}(?: pods?)? \\+ remove ${N} stopped$`), 'média $1 ≥ limite $2, $3 pods < máx. $4 → criar $5 + remover $6 parado(s)'],
  [new RegExp(`^avg ${P} ≥ threshold ${P}, ${N} pods < max ${N} → create ${N}(?: pods?)?$`), 'média $1 ≥ limite $2, $3 pods < máx. $4 → criar $5'],
  [new RegExp(`^avg ${P} ≥ threshold ${P}, ${N} pods = max ${N} → already at max: no scale action$`), 'média $1 ≥ limite $2, $3 pods = máx. $4 → já no máximo: nenhuma ação de escala'],
  [new RegExp(`^threshold/2 ${P} ≤ avg ${P} < threshold ${P} → no scale action$`), 'limite/2 $1 ≤ média $2 < limite $3 → nenhuma ação de escala'],
  [new RegExp(`^avg ${P}, ${N} pods: < threshold/2 ${P}, at min ${N} → no scale action$`), 'média $1, $2 pods: < limite/2 $3, no mínimo $4 → nenhuma ação de escala'],
  [new RegExp(`^avg ${P}, ${N} pods: ${N} starting: wait for it → no scale action$`), 'média $1, $2 pods: $3 iniciando: esperar → nenhuma ação de escala'],
  [new RegExp(`^avg ${P}, ${N} pods: within \\[${P}, ${P}\\) → no scale action$`), 'média $1, $2 pods: dentro de [$3, $4) → nenhuma ação de escala'],
  [new RegExp(`^avg ${P}, ${N} pods: ≥ threshold ${P}, at max ${N} → no scale action$`), 'média $1, $2 pods: ≥ limite $3, no máximo $4 → nenhuma ação de escala'],
  [new RegExp(`^${N} pods < min ${N} → create ${N} \\+ remove ${N} stopped$`), '$1 pods < mín. $2 → criar $3 + remover $4 parado(s)'],
  [new RegExp(`^${N} pods < min ${N} → create ${N}$`), '$1 pods < mín. $2 → criar $3'],
  [new RegExp(`^${N} pods < min ${N} → scale ${N} → ${N}$`), '$1 pods < mín. $2 → escalar $3 → $4'],
  [new RegExp(`^${N} pods running, min ${N} > ${N} → create ${N} pods?$`), '$1 pods em execução, mín. $2 > $3 → criar $4'],
  [/^created (\S+)$/, 'criado $1'],
  [/^deleted$/, 'apagado'],
  [/^killed (\S+)$/, '$1 morto (kill)'],
  [/^stress (\S+) → (\S+)$/, 'estresse em $1 → $2'],
  [/^demand → (\S+)$/, 'demanda → $1'],
  [new RegExp(`^next ${N} API calls fail$`), 'as próximas $1 chamadas à API falham'],
  [new RegExp(`^API ${N}× slower for (\\S+)$`), 'API $1× mais lenta por $2'],
  [/^error: Instance is running \(retry #(\d+)\)$/, 'erro: ⟦Instance is running⟧ (nova tentativa nº $1)'],
  [/^error: Incus API unavailable \(injected failure\) \(retry #(\d+)\)$/, 'erro: ⟦Incus API unavailable⟧ (falha injetada) (nova tentativa nº $1)'],
  [/^error: (.*) \(retry #(\d+)\)$/, 'erro: ⟦$1⟧ (nova tentativa nº $2)'],
];

/** Pieces of the HPA controller's own reasoning (machines/hpa-algorithm), translated wherever they appear. */
const HPA_ALGORITHM: Rule[] = [
  [/utilisation ([\d.]+%) vs target ([\d.]+%): /g, 'utilização $1 vs alvo $2: '],
  [/ratio ([\d.]+) with missing\/unready pods counted: within tolerance or the direction flips, keep → /g, 'razão $1 contando pods ausentes/não prontos: dentro da tolerância ou a direção se inverte, manter → '],
  [/ratio ([\d.]+) within tolerance → /g, 'razão $1 dentro da tolerância → '],
  [/ ready\)/g, ' prontos)'],
  [/ pods incl\. missing\/unready\)/g, ' pods incl. ausentes/não prontos)'],
  [/ScaleDownStabilized to ([\d.]+) \(max in (\S+)\)/g, '⟦ScaleDownStabilized⟧ para $1 (máx. em $2)'],
  [/\b(DesiredWithinRange|TooManyReplicas|TooFewReplicas|ScaleDownStabilized|ScaleUpLimit|ScaleDownLimit|ReadyForNewScale)\b/g, '⟦$1⟧'],
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

/** Narration every loop shares (sim/runner.ts). */
const COMMON: Rule[] = [
  [/^controller restarted: memory lost, starts observing again$/, 'controlador reiniciado: memória perdida, volta a observar'],
];

/** loopscope's own narration in the classic loops; their other notes are the real tool's output. */
const NARRATION: Rule[] = [
  // cron (sim/worlds/cron*, machines/cron)
  [/^clock jumps ([+−-]\d+ min) → (.+)$/, 'o relógio salta $1 → $2'],
  [/^host down for (\d+) min$/, 'host fora do ar por $1 min'],
  [/^crond started at ([^:]+:\d\d): missed runs are not made up(.*)$/, 'crond iniciado em $1: execuções perdidas não são recuperadas⟦$2⟧'],
  [/^crontab reloaded: (\d+) entries(.*)$/, 'crontab recarregado: $1 entradas⟦$2⟧'],
  [/^kube-controller-manager down for (\d+) min \(running Jobs continue\)$/, '⟦kube-controller-manager⟧ fora do ar por $1 min (os Jobs em execução continuam)'],
  [/^(\S+) overruns: its run takes (\d+) min longer$/, '$1 se estende: sua execução leva $2 min a mais'],
  [/^([\d-]+ [\d:]+): due (.+)$/, '$1: na hora de $2'],
  // systemd (machines/systemd-restart)
  [/^program replaced: next run dies of (\S+) after (\S+)$/, 'programa substituído: a próxima execução morre por $1 após $2'],
  [/^program replaced: next run exits (\d+) after (\S+)$/, 'programa substituído: a próxima execução sai com $1 após $2'],
  [/^main PID (\d+) stopped answering \(no WATCHDOG=1\); watchdog fires in (\S+)$/, 'o PID principal $1 parou de responder (sem WATCHDOG=1); o watchdog dispara em $2'],
  [/^(Main process exited, [^→]+) → result '([^']+)'; manual stop: no restart$/, '⟦$1⟧ → resultado ⟦$2⟧; parada manual: sem reinício'],
  [/^(Main process exited, [^→]+) → result '([^']+)'; forced by exit status: restart in (\S+)$/, '⟦$1⟧ → resultado ⟦$2⟧; forçado pelo status de saída: reinício em $3'],
  [/^(Main process exited, [^→]+) → result '([^']+)'; prevented by exit status: no restart$/, '⟦$1⟧ → resultado ⟦$2⟧; impedido pelo status de saída: sem reinício'],
  [/^(Main process exited, [^→]+) → result '([^']+)'; (.+): restart in (\S+)$/, '⟦$1⟧ → resultado ⟦$2⟧; ⟦$3⟧: reinício em $4'],
  [/^(Main process exited, [^→]+) → result '([^']+)'; (.+): no restart$/, '⟦$1⟧ → resultado ⟦$2⟧; ⟦$3⟧: sem reinício'],
  // Puppet (sim/worlds/puppet)
  [/^changed outside Puppet: (.+)$/, 'alterado fora do Puppet: ⟦$1⟧'],
  [/^new catalog version (\d+) \((\d+) resources\), (.+): used from the next run$/, 'nova versão do catálogo $1 ($2 recursos), ⟦$3⟧: usada a partir da próxima execução'],
  [/^next run in (\S+)$/, 'próxima execução em $1'],
  [/^repository mirror broken for (\S+): the next (\d+) installs? will fail$/, 'espelho do repositório quebrado para $1: as próximas $2 instalações vão falhar'],
  [/^repository publishes (\S+) (\S+)$/, 'o repositório publica $1 $2'],
  [/^run (\d+) report: (\w+), exit code (\d+) — (.+)$/, 'relatório da execução $1: ⟦$2⟧, código de saída $3 — ⟦$4⟧'],
  [/^puppet agent: (.+); catalog of (\d+) resources$/, '⟦puppet agent: $1⟧; catálogo de $2 recursos'],
  // Terraform (sim/worlds/terraform)
  [/^changed in the console, outside Terraform: (.+)$/, 'alterado no console, fora do Terraform: ⟦$1⟧'],
  // Kubernetes (sim/worlds/kubernetes)
  [/^node (\S+) failed \(kubelet stops reporting\)$/, 'o nó $1 falhou (o kubelet para de reportar)'],
  [/^pod (\S+) crashed \(restart #(\d+), (.+)\)$/, 'o pod $1 caiu (reinício nº $2, ⟦$3⟧)'],
  [/^load on (\S+) → (.+)$/, 'carga em $1 → $2'],
  [/^queue (\S+): (\d+) messages\/s arriving$/, 'fila $1: $2 mensagens/s chegando'],
];

function split(text: string): NotePart[] {
  const parts: NotePart[] = [];
  for (const [i, piece] of text.split(/⟦|⟧/).entries()) if (piece) parts.push(i % 2 ? { text: piece, verbatim: true } : { text: piece });
  return parts;
}

function firstMatch(rules: readonly Rule[], note: string): string | undefined {
  for (const [re, template] of rules) if (re.test(note)) return note.replace(re, template);
  return undefined;
}

/** Loops whose notes not covered by a rule are the real tool's own output (kept in English, marked). */
const TOOL_LOG_LOOPS = new Set(['cron', 'systemd-restart', 'puppet', 'terraform', 'kubernetes']);

export function translateNote(loop: string, note: string, lang: Language): NotePart[] {
  if (lang === 'en') return [{ text: note }];
  const whole = firstMatch(COMMON, note) ?? firstMatch(loop === 'incus-hpa' ? HPA : NARRATION, note);
  if (whole !== undefined) return split(whole);
  if (/utilisation|seed rule:|ratio [\d.]+ |: cpu [\d<]/.test(note)) {
    let out = note;
    for (const [re, template] of HPA_ALGORITHM) out = out.replace(re, template);
    return split(out.replace(/^reconcile (\S+): /, '⟦reconcile $1:⟧ '));
  }
  // Anything else the classic loops print is their tool's log line; an untranslated HPA sentence stays
  // unmarked, so the pt-BR browser check finds it.
  return TOOL_LOG_LOOPS.has(loop) ? [{ text: note, verbatim: true }] : [{ text: note }];
}
