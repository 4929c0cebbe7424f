import { List, ListItem, ListItemText, Paper, Typography } from '@mui/material';
import { formatDateTime } from '@portal/contracts/rules';
import type { FormulaErrorDto, ValidationResult } from '@portal/contracts/calculations';
import { errorText } from './calculation-form';

export interface CalculationOutput {
  errors: FormulaErrorDto[];
  results: ValidationResult['results'];
}

/** Output: the errors of the last validation or test, its success text, or the test's values. */
export function OutputPanel({
  output,
  successText,
}: {
  output: CalculationOutput | null;
  /** The last validation's success text, shown when there is nothing else. */
  successText: string;
}) {
  const errors = output?.errors ?? [];
  return (
    <>
      <Typography variant="subtitle2" component="h4" sx={{ mt: 2 }}>
        Output
      </Typography>
      <Paper
        variant="outlined"
        sx={{ minHeight: 56, maxHeight: 240, overflow: 'auto', fontFamily: 'monospace', fontSize: 13 }}
        data-testid="calculation-output"
        tabIndex={0}
        role="region"
        aria-label="Output"
      >
        <List dense disablePadding>
          {!output && (
            <ListItem>
              <ListItemText secondary="Validate or test to see the result here." />
            </ListItem>
          )}
          {errors.map((e, i) => (
            <ListItem key={`e${i}`} sx={{ color: 'error.main' }}>
              {errorText(e)}
            </ListItem>
          ))}
          {output && errors.length === 0 && output.results.length === 0 && <ListItem>{successText}</ListItem>}
          {output?.results.map((r, i) => (
            <ListItem key={`r${i}`}>
              {formatDateTime(r.timestamp)} → {r.value === null ? 'null' : String(r.value)}
            </ListItem>
          ))}
        </List>
      </Paper>
    </>
  );
}
