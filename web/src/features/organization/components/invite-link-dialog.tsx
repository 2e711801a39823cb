import { Copy } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { notify } from '../../../lib/toast';

/**
 * No mail server is configured, so the invitation's one-time link could not be e-mailed: the inviter
 * passes it on. It is shown once, here; the server keeps only its hash.
 */
export function InviteLinkDialog({
  email,
  link,
  onClose,
}: {
  email: string;
  link: string | null;
  onClose: () => void;
}) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link ?? '');
      notify.success('Link Copied');
    } catch {
      notify.error('Copy Failed', 'Select the link and copy it by hand.');
    }
  };
  return (
    <Dialog open={link !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Send this invitation link</DialogTitle>
          <DialogDescription>
            No mail server is configured, so the link was not e-mailed. Send it to {email} yourself: it works
            once, and is not shown again.
          </DialogDescription>
        </DialogHeader>
        <Input readOnly value={link ?? ''} aria-label="Invitation link" onFocus={(e) => e.target.select()} />
        <DialogFooter>
          <Button variant="outline" onClick={copy}>
            <Copy aria-hidden="true" />
            Copy link
          </Button>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
