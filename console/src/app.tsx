/** @module console/app: the frame (skip link, header with navigation and the user, main landmark) and the session state. */
import { useEffect, useState } from 'preact/hooks';
import type { SessionUser } from './types.js';
import { currentUser, signOut } from './session.js';
import { useRoute, type Route } from './router.js';
import { Link } from './components/link.js';
import { SignIn } from './pages/sign-in.js';
import { OverviewPage } from './pages/overview.js';
import { ScenariosPage } from './pages/scenarios.js';
import { ScenarioPage } from './pages/scenario.js';
import { KeysPage } from './pages/keys.js';
import { WebhooksPage } from './pages/webhooks.js';
import { GovernancePage } from './pages/governance.js';
import { AuditPage } from './pages/audit.js';
import { UsersPage } from './pages/users.js';
import { PageTitle } from './components/common.js';

/** Navigation entries: path, label, and the route pages they mark current. */
const NAV: readonly { to: string; label: string; pages: readonly Route['page'][] }[] = [
  { to: '', label: 'Overview', pages: ['overview'] },
  { to: 'scenarios', label: 'Scenarios', pages: ['scenarios', 'scenario'] },
  { to: 'keys', label: 'API keys', pages: ['keys'] },
  { to: 'webhooks', label: 'Webhooks', pages: ['webhooks'] },
  { to: 'governance', label: 'Waivers & settings', pages: ['governance'] },
  { to: 'audit', label: 'Audit log', pages: ['audit'] },
  { to: 'users', label: 'Users', pages: ['users'] },
];

/** The console. */
export function App() {
  const [user, setUser] = useState<SessionUser | null | undefined>(undefined);
  const route = useRoute();
  useEffect(() => {
    currentUser().then(setUser, () => setUser(null));
  }, []);

  if (user === undefined)
    return (
      <main id="main">
        <p role="status">Loading…</p>
      </main>
    );
  if (user === null) return <SignIn onSignedIn={setUser} />;

  const out = async () => {
    try {
      await signOut();
    } finally {
      setUser(null);
    }
  };
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="site-header">
        <p class="brand">Governance console</p>
        <nav aria-label="Main">
          <ul>
            {NAV.map((n) => (
              <li key={n.to}>
                <Link to={n.to} current={n.pages.includes(route.page)}>
                  {n.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="user">
          <span>
            {user.email} <span class="muted">({user.role})</span>
          </span>
          <button type="button" onClick={() => void out()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Page route={route} user={user} />
      </main>
    </>
  );
}

function Page(props: { route: Route; user: SessionUser }) {
  const r = props.route;
  switch (r.page) {
    case 'overview':
      return <OverviewPage />;
    case 'scenarios':
      return <ScenariosPage />;
    case 'scenario':
      return <ScenarioPage key={r.id} id={r.id} />;
    case 'keys':
      return <KeysPage user={props.user} />;
    case 'webhooks':
      return <WebhooksPage user={props.user} />;
    case 'governance':
      return <GovernancePage user={props.user} />;
    case 'audit':
      return <AuditPage />;
    case 'users':
      return <UsersPage user={props.user} />;
    case 'not-found':
      return (
        <>
          <PageTitle>Page not found</PageTitle>
          <p>
            <Link to="">Back to the overview</Link>
          </p>
        </>
      );
  }
}
