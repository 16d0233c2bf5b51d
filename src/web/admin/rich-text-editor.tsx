import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { type ReactNode, useEffect, useRef } from 'react';
import type { AdminMessageKey } from '../i18n/admin-messages.ts';
import { stylesheetNonce } from '../lib/stylesheet.ts';
import { LinkIcon } from './icons.tsx';
import { useAdminShop } from './text.ts';

/**
 * The product description editor (TipTap). It only offers what the server keeps when it sanitizes
 * a description: paragraphs, bold, italic, underline, h2/h3, lists, quotes and links. Loaded with
 * React.lazy once the page is hydrated, so TipTap is fetched only when an editor is shown, and never
 * runs on the server.
 */
export default function RichTextEditor({
  labelId,
  value,
  onChange,
}: {
  /** The id of the visible label naming this editor. */
  labelId: string;
  value: string;
  onChange: (html: string) => void;
}) {
  const { t } = useAdminShop();
  const changed = useRef(onChange);
  changed.current = onChange;
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        code: false,
        codeBlock: false,
        strike: false,
        horizontalRule: false,
        link: { openOnClick: false, autolink: true },
      }),
    ],
    content: value,
    immediatelyRender: false,
    // The editor's own base style goes into the head; it needs the page's nonce (ADR 0026).
    injectNonce: stylesheetNonce(),
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        class: 'rich-text__content',
      },
    },
    onUpdate: ({ editor: current }) => changed.current(current.isEmpty ? '' : current.getHTML()),
  });

  // A value replaced from outside (the saved, sanitized description) is shown as it is now.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    if (value !== current && !editor.isFocused) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  const state = useEditorState({
    editor,
    selector: ({ editor: current }) =>
      current
        ? {
            bold: current.isActive('bold'),
            italic: current.isActive('italic'),
            underline: current.isActive('underline'),
            h2: current.isActive('heading', { level: 2 }),
            h3: current.isActive('heading', { level: 3 }),
            bulletList: current.isActive('bulletList'),
            orderedList: current.isActive('orderedList'),
            blockquote: current.isActive('blockquote'),
            link: current.isActive('link'),
            canUndo: current.can().undo(),
            canRedo: current.can().redo(),
          }
        : null,
  });

  const setLink = () => {
    if (!editor) return;
    const previous = (editor.getAttributes('link').href as string | undefined) ?? '';
    const href = window.prompt(t('admin-editor-link-prompt'), previous);
    if (href === null) return;
    if (href.trim() === '') editor.chain().focus().extendMarkRange('link').unsetLink().run();
    else editor.chain().focus().extendMarkRange('link').setLink({ href: href.trim() }).run();
  };

  const buttons: Array<{
    key: string;
    label: AdminMessageKey;
    text: ReactNode;
    active?: boolean | undefined;
    disabled?: boolean | undefined;
    run: () => void;
  }> = editor
    ? [
        {
          key: 'bold',
          label: 'admin-editor-bold',
          text: 'B',
          active: state?.bold,
          run: () => editor.chain().focus().toggleBold().run(),
        },
        {
          key: 'italic',
          label: 'admin-editor-italic',
          text: 'I',
          active: state?.italic,
          run: () => editor.chain().focus().toggleItalic().run(),
        },
        {
          key: 'underline',
          label: 'admin-editor-underline',
          text: 'U',
          active: state?.underline,
          run: () => editor.chain().focus().toggleUnderline().run(),
        },
        {
          key: 'h2',
          label: 'admin-editor-heading',
          text: 'H2',
          active: state?.h2,
          run: () => editor.chain().focus().toggleHeading({ level: 2 }).run(),
        },
        {
          key: 'h3',
          label: 'admin-editor-subheading',
          text: 'H3',
          active: state?.h3,
          run: () => editor.chain().focus().toggleHeading({ level: 3 }).run(),
        },
        {
          key: 'bullets',
          label: 'admin-editor-bullet-list',
          text: '•',
          active: state?.bulletList,
          run: () => editor.chain().focus().toggleBulletList().run(),
        },
        {
          key: 'numbers',
          label: 'admin-editor-ordered-list',
          text: '1.',
          active: state?.orderedList,
          run: () => editor.chain().focus().toggleOrderedList().run(),
        },
        {
          key: 'quote',
          label: 'admin-editor-quote',
          text: '❝',
          active: state?.blockquote,
          run: () => editor.chain().focus().toggleBlockquote().run(),
        },
        { key: 'link', label: 'admin-editor-link', text: <LinkIcon />, active: state?.link, run: setLink },
        {
          key: 'undo',
          label: 'admin-editor-undo',
          text: '↶',
          disabled: !state?.canUndo,
          run: () => editor.chain().focus().undo().run(),
        },
        {
          key: 'redo',
          label: 'admin-editor-redo',
          text: '↷',
          disabled: !state?.canRedo,
          run: () => editor.chain().focus().redo().run(),
        },
      ]
    : [];

  return (
    <div className="rich-text">
      <div className="rich-text__toolbar" role="toolbar" aria-label={t('admin-editor-toolbar')}>
        {buttons.map((button) => (
          <button
            key={button.key}
            type="button"
            title={t(button.label)}
            aria-label={t(button.label)}
            aria-pressed={button.active === undefined ? undefined : button.active}
            disabled={button.disabled}
            onClick={button.run}
          >
            {button.text}
          </button>
        ))}
      </div>
      <EditorContent editor={editor} />
    </div>
  );
}
