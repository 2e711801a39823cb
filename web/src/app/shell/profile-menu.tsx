import { Building2, ChevronDown, History, LogOut, ShieldCheck, UserRound } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { useAuth } from '../../lib/auth';
import { displayName, USER_LEVEL_LABELS } from '@cc/contract';
import { ADMIN_LEVELS, hasLevel } from '../../lib/access';

export function initialOf(name: string): string {
  return (name.trim().charAt(0) || '?').toUpperCase();
}

/** The profile menu: Profile, Organization, Activity, Super Admin (admin only), Logout. */
export function ProfileMenu() {
  const { user, signOut } = useAuth();
  const navigate = useNavigate();
  if (!user) return null;
  const name = displayName(user);
  const isAdmin = hasLevel(user.user_level, ADMIN_LEVELS);

  const logout = () => {
    signOut();
    navigate('/login', { replace: true });
  };

  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger
        className="flex items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm transition-colors hover:bg-muted data-[state=open]:bg-muted"
        aria-label={`Profile menu: ${name}`}
      >
        <span className="grid size-8 place-items-center rounded-full bg-primary font-semibold text-primary-foreground">
          {initialOf(name)}
        </span>
        <span className="hidden max-w-40 truncate font-medium xl:inline">{name}</span>
        <ChevronDown className="size-4 text-muted-foreground" aria-hidden="true" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="flex flex-col gap-0.5">
          <span className="truncate font-medium">{name}</span>
          <span className="truncate text-xs font-normal text-muted-foreground">
            {user.email} · {USER_LEVEL_LABELS[user.user_level] ?? user.user_level}
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/app/profile">
            <UserRound aria-hidden="true" />
            Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/app/organization">
            <Building2 aria-hidden="true" />
            Organization
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/app/activity">
            <History aria-hidden="true" />
            Activity
          </Link>
        </DropdownMenuItem>
        {isAdmin ? (
          <DropdownMenuItem asChild>
            <Link to="/app/admin">
              <ShieldCheck aria-hidden="true" />
              Super Admin
            </Link>
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={logout}>
          <LogOut aria-hidden="true" />
          Logout
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
