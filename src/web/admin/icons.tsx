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
