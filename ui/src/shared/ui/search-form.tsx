import { Button, Group, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { IconSearch } from './icons';

/** A search box applied on submit (Enter or the button): a list searched on the screen, its text kept in the URL. */
export function SearchForm({
  value,
  label,
  placeholder,
  maxLength,
  onApply,
}: {
  value: string;
  /** The input's accessible name ("Search users by name or email"). */
  label: string;
  placeholder: string;
  maxLength: number;
  onApply: (search: string) => void;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onApply(text.trim());
      }}
      aria-label="Search"
    >
      <Group gap="xs" align="flex-start">
        <TextInput
          aria-label={label}
          placeholder={placeholder}
          maxLength={maxLength}
          leftSection={<IconSearch size={16} aria-hidden />}
          style={{ flex: 1, maxWidth: 420 }}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        <Button type="submit" variant="default">
          Search
        </Button>
      </Group>
    </form>
  );
}
