import { nameSurveyOwnerRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { User } from '../../shared/people/entities.ts';
import { nameOwner } from '../../shared/surveys/surveys.ts';

export const handler = route(nameSurveyOwnerRoute, (req) =>
  nameOwner(req.caller.userId, req.params.userId, async (id) => {
    const u = await User.get({ id }, { consistent: true });
    return !!u && u.status !== 'deactivated';
  }),
);
