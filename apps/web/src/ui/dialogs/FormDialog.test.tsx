import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { TextField } from '@mui/material';
import { FormDialog, type FormDialogProps } from './FormDialog';

afterEach(cleanup);

function NameDialog(props: Partial<FormDialogProps> & { onSave(name: string): void }) {
  const [name, setName] = useState('');
  return (
    <FormDialog
      title="Add ship"
      onClose={() => undefined}
      submitLabel="Add"
      invalid={name === ''}
      {...props}
      onSubmit={() => props.onSave(name)}
    >
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} />
    </FormDialog>
  );
}

const submitButton = () => screen.getByRole('button', { name: 'Add' }) as HTMLButtonElement;

describe('FormDialog', () => {
  it('is named by its title; its submit button and Enter in a field send the form once it is valid', () => {
    const onSave = vi.fn();
    render(<NameDialog onSave={onSave} />);
    const dialog = screen.getByRole('dialog', { name: 'Add ship' });
    const field = within(dialog).getByLabelText('Name');
    expect(submitButton().disabled).toBe(true);
    fireEvent.submit(field.closest('form')!);
    expect(onSave).not.toHaveBeenCalled();

    fireEvent.change(field, { target: { value: 'Atlantic Meridian' } });
    expect(submitButton().disabled).toBe(false);
    fireEvent.click(submitButton());
    expect(onSave).toHaveBeenLastCalledWith('Atlantic Meridian');
    // Enter in a text field submits its form (the browser's implicit submission).
    fireEvent.submit(field.closest('form')!);
    expect(onSave).toHaveBeenCalledTimes(2);
  });

  it('sends nothing while busy, and shows why the server refused', () => {
    const onSave = vi.fn();
    render(<NameDialog onSave={onSave} busy error="A ship of this name exists already" />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Atlantic Meridian' } });
    expect(submitButton().disabled).toBe(true);
    fireEvent.submit(screen.getByLabelText('Name').closest('form')!);
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('A ship of this name exists already');
  });

  it('closes by Cancel (or the label given), and has no Cancel without a way to close', () => {
    const onClose = vi.fn();
    const { rerender } = render(<NameDialog onSave={vi.fn()} onClose={onClose} cancelLabel="Close" />);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    rerender(<NameDialog onSave={vi.fn()} onClose={undefined} />);
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it('does not send the form of the page it is opened from, nor is sent by a dialog opened from it', () => {
    const pageSubmit = vi.fn();
    const onSave = vi.fn();
    render(
      <form onSubmit={pageSubmit}>
        <NameDialog onSave={onSave} />
      </form>,
    );
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Atlantic Meridian' } });
    fireEvent.click(submitButton());
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(pageSubmit).not.toHaveBeenCalled();
  });

  it('with enterSubmits false holds no form: only its button sends', () => {
    const onSave = vi.fn();
    render(<NameDialog onSave={onSave} enterSubmits={false} />);
    expect(screen.getByLabelText('Name').closest('form')).toBeNull();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Atlantic Meridian' } });
    fireEvent.click(submitButton());
    expect(onSave).toHaveBeenCalledWith('Atlantic Meridian');
  });
});
