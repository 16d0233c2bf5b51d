import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { checkLink } from '../../contract/rich-text.ts';
import type { AdminMessageKey } from '../i18n/admin-messages.ts';
import { pageStyleNonce } from '../lib/csp-nonce.ts';
import { FilePicker } from './file-picker.tsx';
import { ImageIcon, LinkIcon, TableIcon } from './icons.tsx';
import { richTextExtensions } from './rich-text-schema.ts';
import { useAdminShop } from './text.ts';

/**
 * The rich text editor of descriptions, size guides and static pages (TipTap). It holds exactly
 * what the server keeps when it sanitizes (rich-text-schema.ts): paragraphs, bold, italic,
 * underline, h2–h4, lists, quotes, links, pictures from the file manager and tables. Loaded with
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
  const [linkProblem, setLinkProblem] = useState<string | null>(null);
  const [pickingImage, setPickingImage] = useState(false);
  const editor = useEditor({
    extensions: richTextExtensions(),
    content: value,
    immediatelyRender: false,
    // The editor's own base style goes into the head; it needs the page's nonce (ADR 0026).
    injectNonce: pageStyleNonce(),
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
            h4: current.isActive('heading', { level: 4 }),
            bulletList: current.isActive('bulletList'),
            orderedList: current.isActive('orderedList'),
            blockquote: current.isActive('blockquote'),
            link: current.isActive('link'),
            table: current.isActive('table'),
            canUndo: current.can().undo(),
            canRedo: current.can().redo(),
          }
        : null,
  });

  const setLink = () => {
    if (!editor) return;
    const previous = (editor.getAttributes('link').href as string | undefined) ?? '';
    const typed = window.prompt(t('admin-editor-link-prompt'), previous);
    if (typed === null) return;
    if (typed.trim() === '') {
      setLinkProblem(null);
      editor.chain().focus().extendMarkRange('link').unsetLink().run();
      return;
    }
    const link = checkLink(typed);
    if (!link.ok) {
      setLinkProblem(
        link.reason === 'scheme'
          ? t('admin-editor-link-scheme-refused', { scheme: link.scheme })
          : t('admin-editor-link-invalid', { link: typed.trim() }),
      );
      return;
    }
    setLinkProblem(null);
    editor.chain().focus().extendMarkRange('link').setLink({ href: link.href }).run();
  };

  const insertPictures = (files: Array<{ url: string; originalName: string }>) => {
    if (!editor) return;
    editor
      .chain()
      .focus()
      .insertContent(
        files.map((file) => ({
          type: 'image',
          attrs: {
            src: file.url,
            // The uploader's name without its extension: a start the manager can improve on.
            alt: file.originalName.replace(/\.[a-z0-9]+$/i, ''),
          },
        })),
      )
      .run();
  };

  /** Table commands, shown while the cursor is in a table. */
  const tableButtons: Array<{ key: string; label: AdminMessageKey; run: () => void }> = editor
    ? [
        {
          key: 'row',
          label: 'admin-editor-table-add-row',
          run: () => editor.chain().focus().addRowAfter().run(),
        },
        {
          key: 'column',
          label: 'admin-editor-table-add-column',
          run: () => editor.chain().focus().addColumnAfter().run(),
        },
        {
          key: 'header',
          label: 'admin-editor-table-header-row',
          run: () => editor.chain().focus().toggleHeaderRow().run(),
        },
        {
          key: 'delete-row',
          label: 'admin-editor-table-delete-row',
          run: () => editor.chain().focus().deleteRow().run(),
        },
        {
          key: 'delete-column',
          label: 'admin-editor-table-delete-column',
          run: () => editor.chain().focus().deleteColumn().run(),
        },
        {
          key: 'delete-table',
          label: 'admin-editor-table-delete',
          run: () => editor.chain().focus().deleteTable().run(),
        },
      ]
    : [];

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
          key: 'h4',
          label: 'admin-editor-minor-heading',
          text: 'H4',
          active: state?.h4,
          run: () => editor.chain().focus().toggleHeading({ level: 4 }).run(),
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
          key: 'image',
          label: 'admin-editor-image',
          text: <ImageIcon />,
          run: () => setPickingImage(true),
        },
        {
          key: 'table',
          label: 'admin-editor-table',
          text: <TableIcon />,
          active: state?.table,
          disabled: state?.table,
          run: () => editor.chain().focus().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(),
        },
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
      {state?.table ? (
        <div
          className="rich-text__toolbar rich-text__toolbar--table"
          role="toolbar"
          aria-label={t('admin-editor-table')}
        >
          {tableButtons.map((button) => (
            <button key={button.key} type="button" onClick={button.run}>
              {t(button.label)}
            </button>
          ))}
        </div>
      ) : null}
      {linkProblem ? (
        <p role="alert" className="form-field__error">
          {linkProblem}
        </p>
      ) : null}
      <EditorContent editor={editor} />
      <FilePicker
        open={pickingImage}
        heading={t('admin-editor-choose-image')}
        pickLabel={(count) => t('admin-editor-insert-images', { count })}
        onPick={insertPictures}
        onClose={() => setPickingImage(false)}
      />
    </div>
  );
}
