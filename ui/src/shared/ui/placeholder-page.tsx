import { Paper, Text } from '@mantine/core';
import { Page } from './page';

/** A screen that has its route and its place in the sidebar, and no content yet (docs/dashboard.md, "Screens"). */
export function PlaceholderPage({ title, description }: { title: string; description: string }) {
  return (
    <Page title={title} description={description}>
      <Paper withBorder p="xl" radius="md">
        <Text c="dimmed">This screen is not built yet.</Text>
      </Paper>
    </Page>
  );
}
