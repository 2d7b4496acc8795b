import { useLanguage } from './i18n';
import { translateNote } from './notes';

/** A frame's note in the UI language; quoted tool output keeps its English, marked lang="en". */
export function NoteText({ loop, note }: { loop: string; note: string }) {
  const lang = useLanguage();
  return <>{translateNote(loop, note, lang).map((p, i) => (p.verbatim ? <span key={i} lang="en" className="verbatim">{p.text}</span> : <span key={i}>{p.text}</span>))}</>;
}
