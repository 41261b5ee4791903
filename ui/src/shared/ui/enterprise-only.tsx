import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useCaller } from '../auth/permissions';
import { Page } from './page';

/**
 * An enterprise-only screen: in the open-source edition, which has no such routes, its page says so instead of
 * asking the API for a refusal; in the enterprise edition, the screen itself.
 */
export function EnterpriseOnly({
  title,
  description,
  detail,
  children,
}: {
  title: string;
  description: string;
  /** Why, when the open-source edition has the routes but not what makes them matter. */
  detail?: string;
  children: ReactNode;
}) {
  const { edition } = useCaller();
  if (edition === 'enterprise') return <>{children}</>;
  return (
    <Page title={title} description={description}>
      <Paper withBorder p="xl" radius="md">
        <Text c="dimmed">{title} are part of the enterprise edition.</Text>
        {detail && (
          <Text c="dimmed" size="sm" mt="xs">
            {detail}
          </Text>
        )}
      </Paper>
    </Page>
  );
}
