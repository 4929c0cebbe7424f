import { useEffect, useMemo, useRef } from 'react';
import CodeMirror, { type EditorView as UiwEditorView } from '@uiw/react-codemirror';
import { autocompletion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { indentUnit } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState, RangeSetBuilder } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import { LANGUAGE, tokenize } from '@portal/formula';
import { EDITOR_TAB_SIZE } from '@portal/contracts/rules';
import type { FormulaErrorDto } from '@portal/contracts/calculations';
import { offsetAt } from './enablement';

/** Highlighting from the language's own tokenizer, so the editor and the server agree on every name. */
const highlighter = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = build(view);
    }
    update(update: ViewUpdate) {
      if (update.docChanged) this.decorations = build(update.view);
    }
  },
  { decorations: (v) => v.decorations },
);

function build(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  for (const token of tokenize(view.state.doc.toString())) {
    if (token.type === 'whitespace' || token.type === 'punctuation' || token.to <= token.from) continue;
    builder.add(token.from, token.to, Decoration.mark({ class: `cm-formula-${token.type}` }));
  }
  return builder.finish();
}

// Every colour reads at 4.5:1 or more on white and on the active line's tint (WCAG 2.1 AA, docs/accessibility.md).
const theme = EditorView.baseTheme({
  '.cm-formula-keyword': { color: '#7b1fa2', fontWeight: '600' },
  '.cm-formula-number': { color: '#1565c0' },
  '.cm-formula-string': { color: '#2e7d32' },
  '.cm-formula-constant': { color: '#c62828' },
  '.cm-formula-function': { color: '#00695c' },
  '.cm-formula-comment': { color: '#616161', fontStyle: 'italic' },
  '.cm-formula-operator': { color: '#5d4037' },
  '.cm-formula-invalid': { textDecoration: 'underline wavy #c62828' },
});

function completions(inputNames: readonly string[]) {
  return (context: CompletionContext): CompletionResult | null => {
    const member = context.matchBefore(/\.\w*$/);
    if (member) {
      return {
        from: member.from + 1,
        options: [
          ...LANGUAGE.seriesMethods.map((label) => ({ label, type: 'method', apply: `${label}()` })),
          ...LANGUAGE.dateTimeMembers.map((label) => ({ label, type: 'property' })),
        ],
      };
    }
    const word = context.matchBefore(/\w+$/);
    if (!word && !context.explicit) return null;
    return {
      from: word?.from ?? context.pos,
      options: [
        ...inputNames.map((label) => ({ label, type: 'variable', detail: 'input', boost: 2 })),
        ...LANGUAGE.constants.map((label) => ({ label, type: 'constant', boost: 1 })),
        ...LANGUAGE.mathFunctions.map((label) => ({ label, type: 'function', apply: `${label}(` })),
        ...LANGUAGE.keywords.map((label) => ({ label, type: 'keyword' })),
      ],
      validFor: /^\w*$/,
    };
  };
}

/** Error markers at the line and character the server gave (1-based); a marker spans the word there. */
export function toDiagnostics(text: string, errors: readonly FormulaErrorDto[]): Diagnostic[] {
  const lines = text.split('\n');
  return errors
    .filter((e) => e.startLine > 0)
    .map((e) => {
      const from = offsetAt(lines, e.startLine, e.startCharacter);
      const word = /^\w+/.exec(text.slice(from))?.[0].length ?? 0;
      return {
        from,
        to: Math.min(text.length, from + Math.max(word, 1)),
        severity: 'error' as const,
        message: e.message,
      };
    });
}

export interface FormulaCodeEditorProps {
  value: string;
  onChange(value: string): void;
  inputNames: readonly string[];
  errors: readonly FormulaErrorDto[];
  readOnly: boolean;
}

export default function FormulaCodeEditor({
  value,
  onChange,
  inputNames,
  errors,
  readOnly,
}: FormulaCodeEditorProps) {
  const view = useRef<UiwEditorView | null>(null);
  const extensions = useMemo(
    () => [
      highlighter,
      theme,
      lintGutter(),
      autocompletion({ override: [completions(inputNames)] }),
      EditorState.tabSize.of(EDITOR_TAB_SIZE),
      // The text box itself carries the name (the wrapper's label is not read on the contenteditable).
      // tabindex: the text box is what makes its scroller reachable by keyboard (axe counts it only with one).
      EditorView.contentAttributes.of({
        'aria-label': 'Algorithm',
        'aria-readonly': String(readOnly),
        tabindex: '0',
      }),
      indentUnit.of(' '.repeat(EDITOR_TAB_SIZE)),
    ],
    [inputNames, readOnly],
  );
  // Markers belong to the text they were found in; the next edit clears them until the next validation.
  useEffect(() => {
    const v = view.current;
    if (!v) return;
    v.dispatch(setDiagnostics(v.state, toDiagnostics(v.state.doc.toString(), errors)));
  }, [errors]);
  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={extensions}
      // A read-only formula stays focusable (editable, but refusing changes): keyboard and screen reader users
      // can still move through and read the code, and its scroller is reachable by keyboard.
      readOnly={readOnly}
      minHeight="220px"
      maxHeight="480px"
      basicSetup={{ tabSize: EDITOR_TAB_SIZE, foldGutter: false, autocompletion: false }}
      onCreateEditor={(v) => {
        view.current = v;
        v.dispatch(setDiagnostics(v.state, toDiagnostics(v.state.doc.toString(), errors)));
      }}
    />
  );
}
