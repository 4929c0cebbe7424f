// The calculations feature's public entry: what the measurement field and report screens embed.
export { CalculationEditor, type CalculationEditorProps, type InputOption } from './CalculationEditor';
export { ValidityDialog, type ValidityDialogProps } from './ValidityDialog';
