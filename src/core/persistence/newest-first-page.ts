import type { FindOptionsOrder, FindOptionsWhere, ObjectLiteral, Repository } from 'typeorm';

/** One page of a management list, newest first (the id breaks ties between rows written in the same instant). */
export async function findNewestFirst<T extends ObjectLiteral & { id: string; created_at: Date }>(
  repo: Repository<T>,
  where: FindOptionsWhere<T>,
  page: { limit: number; offset: number },
): Promise<{ rows: T[]; total: number }> {
  const [rows, total] = await repo.findAndCount({
    where,
    order: { created_at: 'DESC', id: 'DESC' } as FindOptionsOrder<T>,
    take: page.limit,
    skip: page.offset,
  });
  return { rows, total };
}
