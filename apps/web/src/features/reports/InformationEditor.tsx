import { useState, type ReactNode } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  IconButton,
  Stack,
  Tooltip,
} from '@mui/material';
import FormatBold from '@mui/icons-material/FormatBold';
import FormatItalic from '@mui/icons-material/FormatItalic';
import FormatUnderlined from '@mui/icons-material/FormatUnderlined';
import FormatListBulleted from '@mui/icons-material/FormatListBulleted';
import FormatListNumbered from '@mui/icons-material/FormatListNumbered';
import HorizontalRule from '@mui/icons-material/HorizontalRule';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { DIALOG_WIDTHS } from '@portal/contracts/rules';

/** Only what the server keeps: bold, italic, underline, headings 1-3, bullet and ordered lists, horizontal rule. */
export const informationExtensions = [
  StarterKit.configure({
    heading: { levels: [1, 2, 3] },
    code: false,
    codeBlock: false,
    blockquote: false,
    strike: false,
    link: false,
  }),
];

export function InformationEditorDialog({
  open,
  html,
  saving,
  onCancel,
  onSave,
}: {
  open: boolean;
  html: string;
  saving: boolean;
  onCancel(): void;
  onSave(html: string): void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      fullWidth
      maxWidth={false}
      slotProps={{ paper: { sx: { width: DIALOG_WIDTHS.wide } } }}
    >
      <DialogTitle>Edit information</DialogTitle>
      {open ? <EditorBody html={html} saving={saving} onCancel={onCancel} onSave={onSave} /> : null}
    </Dialog>
  );
}

function EditorBody({
  html,
  saving,
  onCancel,
  onSave,
}: {
  html: string;
  saving: boolean;
  onCancel(): void;
  onSave(html: string): void;
}) {
  const [initial] = useState(html);
  const editor = useEditor({ extensions: informationExtensions, content: initial, immediatelyRender: true });
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e?.isActive('bold') ?? false,
      italic: e?.isActive('italic') ?? false,
      underline: e?.isActive('underline') ?? false,
      h1: e?.isActive('heading', { level: 1 }) ?? false,
      h2: e?.isActive('heading', { level: 2 }) ?? false,
      h3: e?.isActive('heading', { level: 3 }) ?? false,
      bullet: e?.isActive('bulletList') ?? false,
      ordered: e?.isActive('orderedList') ?? false,
    }),
  });
  const chain = () => editor!.chain().focus();
  const button = (label: string, active: boolean, run: () => void, icon: ReactNode) => (
    <Tooltip title={label} key={label}>
      <IconButton
        size="small"
        aria-label={label}
        aria-pressed={active}
        color={active ? 'primary' : 'default'}
        onClick={run}
      >
        {icon}
      </IconButton>
    </Tooltip>
  );
  return (
    <>
      <DialogContent>
        <Stack
          direction="row"
          spacing={0.5}
          sx={{ mb: 1, flexWrap: 'wrap' }}
          data-testid="information-toolbar"
        >
          {button('Bold', Boolean(state?.bold), () => chain().toggleBold().run(), <FormatBold />)}
          {button('Italic', Boolean(state?.italic), () => chain().toggleItalic().run(), <FormatItalic />)}
          {button(
            'Underline',
            Boolean(state?.underline),
            () => chain().toggleUnderline().run(),
            <FormatUnderlined />,
          )}
          <Divider orientation="vertical" flexItem />
          {([1, 2, 3] as const).map((level) =>
            button(
              `Heading ${level}`,
              Boolean(state?.[`h${level}`]),
              () => chain().toggleHeading({ level }).run(),
              <Box component="span" sx={{ fontSize: 14, fontWeight: 700, width: 24 }}>{`H${level}`}</Box>,
            ),
          )}
          <Divider orientation="vertical" flexItem />
          {button(
            'Bullet list',
            Boolean(state?.bullet),
            () => chain().toggleBulletList().run(),
            <FormatListBulleted />,
          )}
          {button(
            'Ordered list',
            Boolean(state?.ordered),
            () => chain().toggleOrderedList().run(),
            <FormatListNumbered />,
          )}
          {button('Horizontal rule', false, () => chain().setHorizontalRule().run(), <HorizontalRule />)}
        </Stack>
        <Box
          data-testid="information-editor"
          sx={{
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            p: 1.5,
            minHeight: 240,
            '& .ProseMirror': { outline: 'none', minHeight: 220 },
          }}
        >
          <EditorContent editor={editor} />
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" disabled={saving || !editor} onClick={() => onSave(editor!.getHTML())}>
          Save
        </Button>
      </DialogActions>
    </>
  );
}
