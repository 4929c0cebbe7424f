import { Box, Button, Stack } from '@mui/material';
import type { FormulaErrorDto } from '@portal/contracts/calculations';
import type { EditorAction, Enablement } from './enablement';
import FormulaCodeEditor from './FormulaCodeEditor';
import { WhyDisabled } from './WhyDisabled';

export interface AlgorithmPanelProps {
  algorithm: string;
  onAlgorithm(transformAlgorithm: string): void;
  inputNames: string[];
  /** The errors of the last validation or test, marked in the code. */
  errors: FormulaErrorDto[];
  can: Enablement;
  why: Partial<Record<EditorAction, string>>;
  onValidate(): void;
  onTest(): void;
  onApprove(): void;
  onDelete(): void;
  onSave(recalculate: boolean): void;
}

/** The algorithm in the code editor and the editor's actions; a disabled action says why. */
export function AlgorithmPanel({
  algorithm,
  onAlgorithm,
  inputNames,
  errors,
  can,
  why,
  onValidate,
  onTest,
  onApprove,
  onDelete,
  onSave,
}: AlgorithmPanelProps) {
  return (
    <>
      <Box
        sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}
        data-testid="algorithm-editor"
      >
        <FormulaCodeEditor
          value={algorithm}
          onChange={onAlgorithm}
          inputNames={inputNames}
          errors={errors}
          readOnly={!can.editable}
        />
      </Box>
      <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1.5, flexWrap: 'wrap' }}>
        <WhyDisabled reason={why.validate}>
          <Button variant="outlined" onClick={onValidate} disabled={!can.validate}>
            Validate
          </Button>
        </WhyDisabled>
        <WhyDisabled reason={why.test}>
          <Button variant="outlined" onClick={onTest} disabled={!can.test}>
            Test
          </Button>
        </WhyDisabled>
        <WhyDisabled reason={why.approve}>
          <Button variant="outlined" color="success" onClick={onApprove} disabled={!can.approve}>
            Approve
          </Button>
        </WhyDisabled>
        <Box sx={{ flexGrow: 1 }} />
        <WhyDisabled reason={why.delete}>
          <Button color="error" onClick={onDelete} disabled={!can.delete}>
            Delete
          </Button>
        </WhyDisabled>
        <WhyDisabled reason={why.saveWithoutQueuing}>
          <Button onClick={() => onSave(false)} disabled={!can.saveWithoutQueuing}>
            Save without queuing
          </Button>
        </WhyDisabled>
        <WhyDisabled reason={why.save}>
          <Button variant="contained" onClick={() => onSave(true)} disabled={!can.save}>
            Save
          </Button>
        </WhyDisabled>
      </Stack>
    </>
  );
}
