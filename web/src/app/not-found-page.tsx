import { Compass } from 'lucide-react';
import { Link } from 'react-router';
import { buttonVariants } from '../components/ui/button';
import { Card } from '../components/ui/card';

export default function NotFoundPage() {
  return (
    <div className="flex flex-1 items-center justify-center p-4 py-16">
      <Card className="flex w-full max-w-md flex-col items-center gap-4 p-8 text-center">
        <Compass className="size-8 text-primary" aria-hidden="true" />
        <h1 className="text-xl font-semibold">Page not found</h1>
        <p className="text-sm text-muted-foreground">
          The page you are looking for does not exist or has moved.
        </p>
        <Link to="/" className={buttonVariants({ variant: 'outline' })}>
          Go to the home page
        </Link>
      </Card>
    </div>
  );
}
