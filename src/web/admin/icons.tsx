/** Icons of the back office, drawn inline (no emoji font needed); always next to a text or a label. */

export function FolderIcon() {
  return (
    <svg className="admin-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M3 6.5A1.5 1.5 0 0 1 4.5 5h4.6l2 2.2h8.4A1.5 1.5 0 0 1 21 8.7v9.8a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 18.5z"
        fill="currentColor"
        opacity="0.85"
      />
    </svg>
  );
}

export function LinkIcon() {
  return (
    <svg className="admin-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1.2 1.2M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1.2-1.2"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  );
}

export function ImageIcon() {
  return (
    <svg className="admin-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect x="3" y="4" width="18" height="16" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
      <path
        d="m4 18 5-6 4 4 3-3 4 5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <circle cx="16" cy="9" r="1.6" fill="currentColor" />
    </svg>
  );
}

export function TableIcon() {
  return (
    <svg className="admin-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect x="3" y="4" width="18" height="16" rx="1.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M3 9.5h18M3 15h18M9 4v16M15 4v16" fill="none" stroke="currentColor" strokeWidth="1.6" />
    </svg>
  );
}
