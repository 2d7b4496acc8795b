// Icons drawn as inline SVG: a glyph such as ⌖ or 🔒 needs a font that has it, and a stock Debian
// (DejaVu only) draws an empty box instead. These take the text's colour and size (1em).
import type { ReactNode } from 'react';

function Icon({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <svg
      className="icon"
      viewBox="0 0 16 16"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      {children}
    </svg>
  );
}

/** Follow the active state: a crosshair. */
export const FollowIcon = () => (
  <Icon>
    <circle cx="8" cy="8" r="4.5" />
    <path d="M8 1v3M8 12v3M1 8h3M12 8h3" />
  </Icon>
);
/** A held lock. */
export const LockIcon = ({ label }: { label?: string }) => (
  <Icon {...(label ? { label } : {})}>
    <rect x="3" y="7" width="10" height="7.5" rx="1.2" />
    <path d="M5.2 7V5a2.8 2.8 0 0 1 5.6 0v2" />
  </Icon>
);
/** A run that forked off the recorded one. */
export const ForkIcon = () => (
  <Icon>
    <circle cx="4" cy="3" r="1.6" />
    <circle cx="4" cy="13" r="1.6" />
    <circle cx="12" cy="5" r="1.6" />
    <path d="M4 4.6v6.8M12 6.6c0 3-8 2.4-8 4.8" />
  </Icon>
);
/** Pause: two bars. */
export const PauseIcon = () => (
  <Icon>
    <path d="M5.5 3v10M10.5 3v10" strokeWidth="2.4" />
  </Icon>
);
/** Leave: a cross. */
export const CloseIcon = ({ label }: { label?: string }) => (
  <Icon {...(label ? { label } : {})}>
    <path d="M3.5 3.5l9 9M12.5 3.5l-9 9" strokeWidth="2" />
  </Icon>
);
