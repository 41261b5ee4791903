import { Alert, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconInfoCircle } from '../../shared/ui/icons';
import type { ReactNode } from 'react';

/** The frame of the sign-in and unlock pages: the product, what to do, a notice from the last session. */
export function AuthCard({
  title,
  intro,
  notice,
  children,
}: {
  title: string;
  intro: ReactNode;
  notice?: string;
  children: ReactNode;
}) {
  useDocumentTitle(`${title} · AI Gateway`);
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={440}>
        <Stack gap="md">
          <div>
            <Text c="dimmed" size="sm" fw={600}>
              AI Gateway
            </Text>
            <Title order={1} size="h2">
              {title}
            </Title>
          </div>
          {notice && (
            <Alert color="blue" icon={<IconInfoCircle size={18} />} role="status">
              {notice}
            </Alert>
          )}
          <Text size="sm">{intro}</Text>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
