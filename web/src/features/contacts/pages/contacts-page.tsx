import { Users } from 'lucide-react';
import { ComingSoon } from '../../../components/coming-soon';

export default function ContactsPage() {
  return (
    <ComingSoon
      icon={Users}
      title="Contacts Directory"
      description="Your contacts with roles, e-mails, phones, notes and past interactions, shared with your organizations."
    />
  );
}
