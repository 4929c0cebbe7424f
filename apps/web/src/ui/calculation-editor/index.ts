export { CalculationEditor, type CalculationEditorProps, type InputOption } from './CalculationEditor';
export { ValidityDialog, type ValidityDialogProps } from './ValidityDialog';
export { approveCalculation, calculationsQuery, type CalculationTarget } from './calculations-api';
