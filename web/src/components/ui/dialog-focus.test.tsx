import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import {
  AlertDialog,
  AlertDialogConfirm,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogTitle,
} from './alert-dialog';
import { Dialog, DialogContent, DialogTitle } from './dialog';

/** Opened by a plain button with state, as the app's Edit and Delete buttons open theirs (no Trigger). */
function Page({ alert = false }: { alert?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button">Before</button>
      <button type="button" onClick={() => setOpen(true)}>
        Edit task
      </button>
      {alert ? (
        <AlertDialog open={open} onOpenChange={setOpen}>
          <AlertDialogContent>
            <AlertDialogTitle>Delete?</AlertDialogTitle>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogConfirm>Delete</AlertDialogConfirm>
          </AlertDialogContent>
        </AlertDialog>
      ) : (
        <Dialog open={open} onOpenChange={setOpen}>
          <DialogContent aria-describedby={undefined}>
            <DialogTitle>Edit</DialogTitle>
            {/* A field that takes focus as it mounts, before the dialog's own open handler runs. */}
            <input aria-label="Title" autoFocus />
          </DialogContent>
        </Dialog>
      )}
    </>
  );
}

describe('dialogs return focus to the control that opened them', () => {
  it('a dialog closed with Escape', async () => {
    const user = userEvent.setup();
    render(<Page />);
    await user.click(screen.getByRole('button', { name: 'Edit task' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit task' })).toHaveFocus();
  });

  it('a dialog closed with its Close button, and an alert dialog closed with Cancel', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<Page />);
    await user.click(screen.getByRole('button', { name: 'Edit task' }));
    await user.click(await screen.findByRole('button', { name: 'Close' }));
    expect(screen.getByRole('button', { name: 'Edit task' })).toHaveFocus();
    unmount();
    render(<Page alert />);
    await user.click(screen.getByRole('button', { name: 'Edit task' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Edit task' })).toHaveFocus();
  });
});
