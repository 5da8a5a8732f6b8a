import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { ApiError } from './lib/api.ts';
import { App } from './App.tsx';
import './index.css';

// The owner started requiring a second factor while this user, without one, was signed in: the session (read
// again) takes them to its set-up, the one thing the API still answers them.
const toEnrolment = (err: unknown) => {
  if (err instanceof ApiError && err.code === 'two_factor_required') void client.invalidateQueries({ queryKey: ['session'] });
};

const client: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: toEnrolment }),
  mutationCache: new MutationCache({ onError: toEnrolment }),
  defaultOptions: {
    queries: { retry: (n, err) => !(err instanceof ApiError && err.status < 500) && n < 2, refetchOnWindowFocus: false },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <BrowserRouter basename="/app">
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
