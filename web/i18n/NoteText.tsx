import { useLanguage } from './i18n';
import type { FrameNoteOf } from './notes';
import { translateNote } from './notes';

/** A frame's note in the UI language; quoted tool output keeps its English, marked lang="en". */
export function NoteText({ loop, frame }: { loop: string; frame: FrameNoteOf }) {
  const lang = useLanguage();
  return (
    <>
      {translateNote(loop, frame, lang).map((p, i) =>
        p.verbatim ? (
          <span key={i} lang="en" className="verbatim">
            {p.text}
          </span>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}
