/** One option of a checkout choice (delivery or payment method): a radio with a picture, a name and a line. */
export function ChoiceCard({
  name,
  value,
  checked,
  onChoose,
  image,
  title,
  description,
}: {
  name: string;
  value: string;
  checked: boolean;
  onChoose: () => void;
  image: string;
  title: string;
  description: string;
}) {
  return (
    <label className="choice-card">
      <input type="radio" name={name} value={value} checked={checked} onChange={onChoose} />
      <img src={image} alt="" width={48} height={48} />
      <span className="choice-card__text">
        <span className="choice-card__name">{title}</span>
        <span className="choice-card__description">{description}</span>
      </span>
    </label>
  );
}
